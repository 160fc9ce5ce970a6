import { defaultPaymentGatewayOptions } from '../src/payment-gateway.options';
import { signDeviceToken } from '@app/common';
import { GATEWAY_PROFILE_UPSERT_V1, GatewayProfileUpsertV1, GatewayTransactionV1 } from '@app/contracts';
import { uniqueTid } from '@app/host-protocol/testing/factories';
import { platformModules } from '@app/runtime';
import { ApiClient, dumpSchemas, HttpResponse, queryDatabase, startTestApp, TEST_AUTH, TestApp, TestPlatformOptions, unique } from '@app/testing';
import { DynamicModule, LoggerService, Module } from '@nestjs/common';
import { HostConnectorModule } from '../../host-connector/src';
import { HostSandbox, hostSandboxSettingsFrom, startHostSandbox } from '../../standalone/src';
import { PaymentGatewayModule } from '../src';
import { ProfileSyncService } from '../src/profile-sync/profile-sync.service';
import { testCardEmv, TestCardOptions } from '../src/transaction/card/testing/test-card';
import { TransactionSettings } from '../src/transaction/transaction-settings';
import { upsertPayload } from './factories';
import { GATEWAY_BASE, GatewayClient, GatewayTestApp, startGateway } from './support';

export type { GatewayTransactionV1 as TransactionView };

@Module({})
class GatewayWithConnectorModule {}

/** A phone of a PBO with its gateway profile (as merchant-management pushes it) and its device token. */
export interface Terminal {
  groupId: string;
  deviceId: string;
  profileId: string;
  /** The acceptance's MID and TID. */
  mid: string;
  tid: string;
  /** The SDK's client: the device token. */
  device: ApiClient;
  /** The PBO's gateway client: its bearer token. */
  pbo: GatewayClient;
  /** `POST /transaction` with the device token. */
  sale(body: Record<string, unknown>, headers?: Record<string, string>): Promise<HttpResponse<unknown>>;
  /** merchant-management pushes the profile again, changed by `profile` (its next version, the same acceptances). */
  repush(profile: Record<string, unknown>): Promise<void>;
}

export interface TerminalOptions {
  hostMessageFormat?: string;
  supportedPayments?: string[];
  currency?: string;
  groupId?: string;
  /** The acceptance's MID and TID; new ones when absent. */
  mid?: string;
  tid?: string;
  /** More acceptances after the first. */
  acceptances?: Array<Record<string, unknown>>;
  /** The acceptance's extraParams. */
  extraParams?: Record<string, unknown>;
  /** Profile fields of the upsert in place of the factory's (`timeZone: undefined`: an upsert without one). */
  profile?: Record<string, unknown>;
}

export interface SaleTestApp extends GatewayTestApp {
  /** Absent when the app has no host connector (the test answers host.authorize.v1 itself). */
  hosts?: HostSandbox;
  newTerminal(options?: TerminalOptions): Promise<Terminal>;
  /** A device token of `deviceId` in `groupId`. */
  deviceClient(groupId: string, deviceId: string, profileId: string | null): Promise<ApiClient>;
  /** Runs SQL on the app's database. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

function extend(app: GatewayTestApp, hosts?: HostSandbox): SaleTestApp {
  const deviceClient = async (groupId: string, deviceId: string, profileId: string | null) =>
    new ApiClient(app.baseUrl, await signDeviceToken(TEST_AUTH, { deviceId, groupId, profileId }, 3600));
  let pushes = 0;
  const newTerminal = async (options: TerminalOptions = {}): Promise<Terminal> => {
    const groupId = options.groupId ?? unique('grp_');
    const deviceId = `dev-${unique()}`;
    const mid = options.mid ?? `MID${unique()}`.slice(0, 15).toUpperCase();
    const tid = options.tid ?? uniqueTid();
    const upsert = upsertPayload({
      ...options.profile,
      groupId,
      deviceId,
      currency: options.currency ?? 'MYR',
      acceptances: [
        {
          acptName: 'Acquirer A',
          hostMessageFormat: options.hostMessageFormat ?? 'MOCK',
          supportedPayments: options.supportedPayments ?? ['VISA', 'MASTERCARD'],
          primaryMid: mid,
          primaryTid: tid,
          extraParams: options.extraParams ?? {},
        },
        ...(options.acceptances ?? []),
      ],
    }) as unknown as GatewayProfileUpsertV1;
    pushes += 1;
    await app.app.get(ProfileSyncService).apply(upsert, { consumer: 'test', messageId: `push-${unique()}-${pushes}`, subject: GATEWAY_PROFILE_UPSERT_V1 });
    const device = await deviceClient(groupId, deviceId, upsert.profileId);
    return {
      groupId,
      deviceId,
      profileId: upsert.profileId,
      mid,
      tid,
      device,
      pbo: await app.clientOf(groupId),
      sale: (body, headers = {}) => device.request('POST', `${GATEWAY_BASE}/transaction`, body, headers) as Promise<HttpResponse<unknown>>,
      repush: async (profile) => {
        pushes += 1;
        const next = { ...upsert, ...profile, version: upsert.version + 1 } as GatewayProfileUpsertV1;
        Object.assign(upsert, next);
        await app.app.get(ProfileSyncService).apply(next, { consumer: 'test', messageId: `push-${unique()}-${pushes}`, subject: GATEWAY_PROFILE_UPSERT_V1 });
      },
    };
  };
  return { ...app, hosts, newTerminal, deviceClient, query: (sql, params) => queryDatabase(app.database.url, sql, params) };
}

/**
 * payment-gateway with the host connector in process (in-process request/reply), as standalone
 * runs them: MOCK answered by the connector itself, the ISO and JSON formats by the host
 * simulator on loopback ports (unless `simulator` is false: MOCK only).
 */
export async function startGatewayWithConnector(
  settings: Partial<TransactionSettings> = {},
  options: { simulator?: boolean; platform?: Partial<TestPlatformOptions>; hostSettings?: Record<string, string> } = {},
): Promise<SaleTestApp> {
  const hosts = await startHostSandbox(
    hostSandboxSettingsFrom({ HOST_ECHO_INTERVAL_MS: '0', HOST_SIMULATOR: options.simulator === false ? 'off' : 'on', ...options.hostSettings }),
  );
  try {
    const app = await startTestApp(
      (platform): DynamicModule => ({
        module: GatewayWithConnectorModule,
        imports: [...platformModules(platform), PaymentGatewayModule.register({ ...defaultPaymentGatewayOptions(), transactions: settings }), HostConnectorModule.register(hosts.config)],
      }),
      options.platform,
    );
    const clientOf = async (groupId: string) => new GatewayClient(await app.clientFor(groupId), groupId, GATEWAY_BASE);
    const close = async () => {
      await app.close();
      await hosts.close();
    };
    return extend({ ...app, clientOf, newPbo: () => clientOf(unique('grp_')), close }, hosts);
  } catch (error) {
    await hosts.close();
    throw error;
  }
}

/** payment-gateway alone: the test answers host.authorize.v1 as the connector would. */
export async function startGatewayAlone(settings: Partial<TransactionSettings> = {}): Promise<SaleTestApp> {
  return extend(await startGateway({}, { ...defaultPaymentGatewayOptions(), transactions: settings }));
}

export interface SaleBodyOptions extends TestCardOptions {
  /** Decimal amount; the card signs it in minor units. */
  value?: string;
  currency?: string;
  tranType?: 'SALE' | 'AUTH';
  posReference?: string;
}

const NUMERIC_OF: Record<string, string> = { MYR: '458', USD: '840', SGD: '702', JPY: '392', KWD: '414' };
const EXPONENT_OF: Record<string, number> = { MYR: 2, USD: 2, SGD: 2, JPY: 0, KWD: 3 };

/** A sale body as the SDK sends it, the card signing the same amount and currency. */
export function saleBody(terminal: Pick<Terminal, 'profileId'>, options: SaleBodyOptions = {}): Record<string, unknown> {
  const currency = options.currency ?? 'MYR';
  const value = options.value ?? '10.00';
  const amountMinor = BigInt(value.replace('.', '')).toString();
  const exponent = EXPONENT_OF[currency];
  if (exponent === undefined || (value.split('.')[1] ?? '').length !== exponent)
    throw new Error(`saleBody: ${value} ${currency} is not written with its exponent`);
  return {
    profileId: terminal.profileId,
    tranType: options.tranType ?? 'SALE',
    amount: { value, currency },
    emvData: testCardEmv({ amountMinor, currencyNumeric: NUMERIC_OF[currency], ...options }),
    ...(options.posReference === undefined ? {} : { posReference: options.posReference }),
  };
}

/** Every row of every table of a schema, each as `table: <the row's JSON>`. */
export async function dumpSchema(app: Pick<TestApp, 'database'>, schema: string): Promise<string[]> {
  return (await dumpSchemas(app.database.url, [schema])).flatMap(({ table, rows }) => rows.map((row) => `${table}: ${row}`));
}

/** A logger that keeps every line any part of the process logs, at every level (install it with `Logger.overrideLogger`). */
export function recordingLogger(): { lines: string[]; logger: LoggerService } {
  const lines: string[] = [];
  const logger = Object.fromEntries(
    (['log', 'error', 'warn', 'debug', 'verbose', 'fatal'] as const).map((level) => [
      level,
      (...parts: unknown[]) => lines.push(`${level} ${parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join(' ')}`),
    ]),
  ) as unknown as LoggerService;
  return { lines, logger };
}
