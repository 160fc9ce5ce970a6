import { authConfigFrom, authVariables, cipherVariables, defineAppConfig, deviceTokenVariables, envSchema, fieldCipherFrom, HttpSettings } from '@app/common';
import { distributedAppFrom, distributedAppVariables, gatewayNamespaceVariables, PlatformOptions } from '@app/runtime';
import { PaymentGatewayOptions, paymentGatewayOptionsFrom, paymentGatewayVariables } from '../payment-gateway.options';

/** payment-gateway deployed on its own: what main.ts starts it with. */
export interface PaymentGatewayConfig {
  http: HttpSettings;
  platform: PlatformOptions;
  gateway: PaymentGatewayOptions;
}

/**
 * payment-gateway's variables: a distributed app's (HTTP, DATABASE_URL, NATS_URL, retention),
 * bearer tokens, the device tokens the SDK pays with (DEVICE_JWT_SECRET, the key
 * merchant-management signs them with at activation), GATEWAY_NAMESPACE, DATA_ENCRYPTION_KEY (the
 * PBOs' webhook secrets are sealed) and the webhooks' own (WEBHOOK_*). It sends no mail, so
 * SMTP_URL is not read.
 */
export const paymentGatewayConfig = defineAppConfig({
  name: 'payment-gateway',
  schema: envSchema({ ...distributedAppVariables, ...authVariables, ...deviceTokenVariables, ...gatewayNamespaceVariables, ...cipherVariables, ...paymentGatewayVariables }),
  build(values): PaymentGatewayConfig {
    const { production, http, platform } = distributedAppFrom(values);
    return {
      http,
      platform: {
        ...platform,
        auth: authConfigFrom(values, { allowDevelopmentDefault: false, production, deviceTokens: true }),
        cipher: fieldCipherFrom(values, { allowDevelopmentDefault: false, production }),
        gatewayNamespace: values.GATEWAY_NAMESPACE,
      },
      gateway: paymentGatewayOptionsFrom(values, { standalone: false, production }),
    };
  },
});
