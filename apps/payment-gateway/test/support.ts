import { configureHttpApp, Env, envSchema, signPboToken } from '@app/common';
import { connectMessaging, JetStreamStreamOptions, MESSAGE_PUBLISHER, MessagePublisher } from '@app/messaging';
import { ConsumerDefinition } from '@app/messaging/consumer';
import { DEFAULT_GATEWAY_NAMESPACE, PlatformOptions } from '@app/runtime';
import { ApiClient, gatewayBase, GatewayClient, NATS_URL, startTestApp, TEST_AUTH, TestApp, testPlatformOptions, unique } from '@app/testing';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { PaymentGatewayAppModule } from '../src/app.module';
import { defaultPaymentGatewayOptions, PaymentGatewayOptions, paymentGatewayOptionsFrom, paymentGatewayVariables } from '../src/payment-gateway.options';

/** The gateway API's base path in tests (test apps serve the default GATEWAY_NAMESPACE). */
export const GATEWAY_BASE = gatewayBase(DEFAULT_GATEWAY_NAMESPACE);

// The client and bodyOf live in libs/testing, where the cross-context tests in test/ reach them too.
export { bodyOf, GatewayClient } from '@app/testing';

export interface GatewayTestApp extends TestApp {
  /** A client holding a token of a new PBO group (the gateway knows groups only from tokens and upserts). */
  newPbo(): Promise<GatewayClient>;
  /** A client for `groupId`'s token. */
  clientOf(groupId: string): Promise<GatewayClient>;
}

/** The gateway's own options (WEBHOOK_*) from text, read as its app reads them (distributed rules). */
export function gatewayOptionsFrom(env: Env): PaymentGatewayOptions {
  return paymentGatewayOptionsFrom(envSchema(paymentGatewayVariables).read(env), { standalone: false, production: false });
}

/** payment-gateway on its own, on a fresh database, over real HTTP. */
export async function startGateway(
  overrides: Partial<PlatformOptions> = {},
  gateway: PaymentGatewayOptions = defaultPaymentGatewayOptions(),
): Promise<GatewayTestApp> {
  const testApp = await startTestApp((options) => PaymentGatewayAppModule.register(options, gateway), overrides);
  const clientOf = async (groupId: string) => new GatewayClient(await testApp.clientFor(groupId), groupId, GATEWAY_BASE);
  return { ...testApp, clientOf, newPbo: () => clientOf(unique('grp_')) };
}

/** A gateway on NATS JetStream, over real HTTP. */
export interface JetStreamGateway {
  app: NestFastifyApplication;
  publisher: MessagePublisher;
  clientOf(groupId: string): Promise<GatewayClient>;
}

/**
 * payment-gateway on the machine's NATS JetStream with a stream and consumer definitions of the
 * test's own (`consumers`: each definition token and the definition replacing it), so the test
 * never touches the platform's stream or durable consumers.
 */
export async function startGatewayOnJetStream(
  databaseUrl: string,
  stream: JetStreamStreamOptions,
  consumers: Array<[symbol, ConsumerDefinition]>,
  gateway: PaymentGatewayOptions = defaultPaymentGatewayOptions(),
): Promise<JetStreamGateway> {
  const options = testPlatformOptions(databaseUrl, { messaging: { transport: 'jetstream', servers: NATS_URL, stream } });
  let builder = Test.createTestingModule({ imports: [PaymentGatewayAppModule.register(options, gateway)] });
  for (const [token, definition] of consumers) builder = builder.overrideProvider(token).useValue(definition);
  const app = (await builder.compile()).createNestApplication<NestFastifyApplication>(new FastifyAdapter(), { logger: false });
  configureHttpApp(app);
  connectMessaging(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  return {
    app,
    publisher: app.get<MessagePublisher>(MESSAGE_PUBLISHER),
    clientOf: async (groupId) => new GatewayClient(new ApiClient(baseUrl, await signPboToken(TEST_AUTH, groupId, 600)), groupId, GATEWAY_BASE),
  };
}

/** Asserts a problem-details answer with this status and a detail matching `detail`. */
export function expectProblem(response: { status: number; body: unknown }, status: number, detail: RegExp): void {
  expect(response.status).toBe(status);
  expect(response.body).toMatchObject({ status, detail: expect.stringMatching(detail) as string });
}
