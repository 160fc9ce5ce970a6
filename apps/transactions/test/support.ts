import { configureHttpApp, signPboToken } from '@app/common';
import { connectMessaging, InProcessTransport, MESSAGE_PUBLISHER, MessagePublisher, REQUEST_REPLY, RequestReplyTransport } from '@app/messaging';
import { ConsumerDefinition } from '@app/messaging/consumer';
import {
  ApiClient,
  createTestDatabase,
  EnvelopeBody,
  HttpResponse,
  TEST_AUTH,
  TestDatabase,
  TestPlatformOptions,
  testPlatformOptions,
  unique,
} from '@app/testing';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { TransactionsAppModule } from '../src/app.module';
import { ORDER_UPDATES_CONSUMER } from '../src/order-sync/order-updates.consumer';
import { DEFAULT_TRANSACTIONS_TIMEOUTS, TRANSACTIONS_TIMEOUTS, TransactionsTimeouts } from '../src/shared/timeouts';
import { ScriptedGateway, ScriptedMerchantManagement } from './scripted-contexts';

export type Pbo = ApiClient & { groupId: string };

export interface TransactionsTestApp {
  app: NestFastifyApplication;
  options: TestPlatformOptions;
  baseUrl: string;
  database: TestDatabase;
  anonymous: ApiClient;
  /** The payment gateway's side of the contracts, answering on the app's transport. */
  gateway: ScriptedGateway;
  /** merchant-management's side of verify-admin, answering on the app's transport. */
  merchantManagement: ScriptedMerchantManagement;
  requests: RequestReplyTransport;
  publisher: MessagePublisher;
  /** A client holding a token of a new PBO group. */
  newPbo(): Promise<Pbo>;
  clientOf(groupId: string): Promise<Pbo>;
  /** Resolves once every published event was handled (in-process transport only). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export interface StartOptions {
  platform?: Partial<TestPlatformOptions>;
  timeouts?: Partial<TransactionsTimeouts>;
  consumer?: ConsumerDefinition;
  /** Answer the gateway's and merchant-management's subjects on the app's own transport (default); off when the test runs its own responders. */
  scripted?: boolean;
}

/**
 * transactions on its own, on a fresh database, over real HTTP, with the payment gateway and
 * merchant-management played by scripted responders on its own transport (in process unless
 * `platform.messaging` says otherwise).
 */
export async function startTransactions(start: StartOptions = {}): Promise<TransactionsTestApp> {
  const database = await createTestDatabase('txn');
  const options = testPlatformOptions(database.url, start.platform);
  let builder = Test.createTestingModule({ imports: [TransactionsAppModule.register(options)] })
    .overrideProvider(TRANSACTIONS_TIMEOUTS)
    .useValue({ ...DEFAULT_TRANSACTIONS_TIMEOUTS, ...start.timeouts });
  if (start.consumer) builder = builder.overrideProvider(ORDER_UPDATES_CONSUMER).useValue(start.consumer);
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter({ bodyLimit: 1024 * 1024 }), { logger: false, bodyParser: false });
  configureHttpApp(app);
  connectMessaging(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const requests = app.get<RequestReplyTransport>(REQUEST_REPLY);
  const publisher = app.get<MessagePublisher>(MESSAGE_PUBLISHER);
  const gateway = new ScriptedGateway(requests, publisher);
  const merchantManagement = new ScriptedMerchantManagement(requests);
  if (start.scripted !== false) {
    gateway.start();
    merchantManagement.start();
  }
  const clientOf = async (groupId: string): Promise<Pbo> => Object.assign(new ApiClient(baseUrl, await signPboToken(TEST_AUTH, groupId, 3600)), { groupId });
  return {
    app,
    options,
    baseUrl,
    database,
    anonymous: new ApiClient(baseUrl, undefined),
    gateway,
    merchantManagement,
    requests,
    publisher,
    clientOf,
    newPbo: () => clientOf(unique('grp_')),
    settled: () => (publisher instanceof InProcessTransport ? publisher.idle() : Promise.resolve()),
    close: async () => {
      await gateway.close();
      await merchantManagement.close();
      await app.close();
      await database.drop();
    },
  };
}

/** Asserts an envelope error: HTTP status, code and the whole message (or a pattern for parts the test cannot know). */
export function expectError(response: HttpResponse<EnvelopeBody>, status: number, code: number, msg: string | RegExp): void {
  expect({ status: response.status, code: response.body.code, msg: response.body.msg }).toEqual({
    status,
    code,
    msg: typeof msg === 'string' ? msg : expect.stringMatching(msg),
  });
}

export { dataOf } from '@app/testing';
