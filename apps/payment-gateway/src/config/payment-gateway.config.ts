import { authConfigFrom, authVariables, defineAppConfig, envSchema, HttpSettings } from '@app/common';
import { distributedAppFrom, distributedAppVariables, gatewayNamespaceVariables, PlatformOptions } from '@app/runtime';

/** payment-gateway deployed on its own: what main.ts starts it with. */
export interface PaymentGatewayConfig {
  http: HttpSettings;
  platform: PlatformOptions;
}

/**
 * payment-gateway's variables: a distributed app's (HTTP, DATABASE_URL, NATS_URL, retention),
 * bearer tokens and GATEWAY_NAMESPACE. It seals nothing, sends no mail and verifies no device
 * tokens, so DATA_ENCRYPTION_KEY, SMTP_URL and DEVICE_JWT_SECRET are not read.
 */
export const paymentGatewayConfig = defineAppConfig({
  name: 'payment-gateway',
  schema: envSchema({ ...distributedAppVariables, ...authVariables, ...gatewayNamespaceVariables }),
  build(values): PaymentGatewayConfig {
    const { production, http, platform } = distributedAppFrom(values);
    return {
      http,
      platform: {
        ...platform,
        auth: authConfigFrom(values, { allowDevelopmentDefault: false, production, deviceTokens: false }),
        gatewayNamespace: values.GATEWAY_NAMESPACE,
      },
    };
  },
});
