import { authConfigFrom, authVariables, defineAppConfig, deviceTokenVariables, envSchema, HttpSettings } from '@app/common';
import { distributedAppFrom, distributedAppVariables, gatewayNamespaceVariables, PlatformOptions } from '@app/runtime';

/** payment-gateway deployed on its own: what main.ts starts it with. */
export interface PaymentGatewayConfig {
  http: HttpSettings;
  platform: PlatformOptions;
}

/**
 * payment-gateway's variables: a distributed app's (HTTP, DATABASE_URL, NATS_URL, retention),
 * bearer tokens, the device tokens the SDK pays with (DEVICE_JWT_SECRET, the key
 * merchant-management signs them with at activation) and GATEWAY_NAMESPACE. It seals nothing and
 * sends no mail, so DATA_ENCRYPTION_KEY and SMTP_URL are not read.
 */
export const paymentGatewayConfig = defineAppConfig({
  name: 'payment-gateway',
  schema: envSchema({ ...distributedAppVariables, ...authVariables, ...deviceTokenVariables, ...gatewayNamespaceVariables }),
  build(values): PaymentGatewayConfig {
    const { production, http, platform } = distributedAppFrom(values);
    return {
      http,
      platform: {
        ...platform,
        auth: authConfigFrom(values, { allowDevelopmentDefault: false, production, deviceTokens: true }),
        gatewayNamespace: values.GATEWAY_NAMESPACE,
      },
    };
  },
});
