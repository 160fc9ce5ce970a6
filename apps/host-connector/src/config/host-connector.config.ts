import { integerFromEnv } from '@app/common';
import { HOST_MESSAGE_FORMATS, HostMessageFormat } from '@app/contracts';
import { IsoSpecs, isoSpecsFromEnv } from '@app/host-protocol';
import { HostAllowList } from '../routing/allow-list';
import { parseHostUrl, transportOf } from '../routing/host-address';

/** Everything the host connector is configured with; read once at start. */
export interface HostConnectorConfig {
  allowList: HostAllowList;
  /** HOST_DEFAULT_<FORMAT>_URL: where a format goes when the acceptance carries no connUrl. */
  defaultUrls: Partial<Record<HostMessageFormat, string>>;
  /**
   * HOST_SPEC_<FORMAT>_FILE: an operator's message spec file replacing the built-in preset of an
   * ISO format (the acquirer's own field definitions); loaded and checked at start.
   */
  specs: IsoSpecs;
  /** HOST_TIMEOUT_MS: a request's deadline when it names none. */
  timeoutMs: number;
  /** HOST_CONNECT_TIMEOUT_MS: longest wait for a TCP connection. */
  connectTimeoutMs: number;
  /** HOST_ECHO_INTERVAL_MS: keep-alive echo (0800/301) per TCP session; 0 turns it off. */
  echoIntervalMs: number;
  /** HOST_ECHO_MAX_MISSES: unanswered echoes in a row after which the host is marked down. */
  echoMaxMisses: number;
  /** HOST_ZMK: zone master key (double- or triple-length 3DES) the working keys arrive under. */
  zmk: Buffer;
  reconnect: {
    /** HOST_RECONNECT_BASE_MS: first delay after a connection is lost; doubled per failed attempt. */
    baseMs: number;
    /** HOST_RECONNECT_MAX_MS */
    maxMs: number;
  };
  keyExchange: {
    /** HOST_KEY_EXCHANGE_INTERVAL_MS: age at which a terminal's working key is replaced by key exchange (0800/101); 0 turns it off. */
    intervalMs: number;
    /** HOST_KEY_EXCHANGE_RETRY_MS: delay before a failed key exchange is tried again. */
    retryMs: number;
    /** HOST_KEY_EXCHANGE_POLL_MS: how often each replica looks for keys due. */
    pollIntervalMs: number;
  };
  /**
   * HOST_RECOVERY_GRACE_MS: how long after its deadline an unfinished request that may have
   * reached the host counts as abandoned (its handler stopped) and is reversed.
   */
  recoveryGraceMs: number;
  /**
   * HOST_RETENTION_DAYS: how long finished request-log rows (the idempotency record of each
   * requestId) and acknowledged reversals are kept.
   */
  retentionMs: number;
  reversal: {
    /** HOST_REVERSAL_POLL_MS: how often each replica looks for due reversals (an enqueue wakes its own at once). */
    pollIntervalMs: number;
    /** HOST_REVERSAL_BACKOFF_MS: delay after the first failed attempt; doubled per attempt. */
    backoffBaseMs: number;
    /** HOST_REVERSAL_BACKOFF_MAX_MS */
    backoffMaxMs: number;
    /** HOST_REVERSAL_CONCURRENCY: reversals one replica sends at the same time. */
    concurrency: number;
  };
}

/** Configuration that cannot be used; the message names the variable. */
export class HostConnectorConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HostConnectorConfigError';
  }
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  return integerFromEnv(env, name, fallback, min, max, (message) => new HostConnectorConfigError(message));
}

function zoneMasterKey(text: string): Buffer {
  if (!/^([0-9A-Fa-f]{32}|[0-9A-Fa-f]{48})$/.test(text))
    throw new HostConnectorConfigError('HOST_ZMK must be 32 or 48 hex digits (a double- or triple-length 3DES key)');
  return Buffer.from(text, 'hex');
}

/**
 * Reads and checks the connector's configuration. `developmentZmk` is used when HOST_ZMK is not
 * set and the process may run on development keys (standalone outside production); otherwise a
 * missing HOST_ZMK is an error. Loopback hosts are allowed in standalone, or with
 * HOST_ALLOW_LOOPBACK=true.
 */
export function hostConnectorConfigFromEnv(options: { standalone: boolean; developmentZmk?: Buffer; env?: NodeJS.ProcessEnv }): HostConnectorConfig {
  const env = options.env ?? process.env;
  const production = env.NODE_ENV === 'production';
  const allowLoopback = env.HOST_ALLOW_LOOPBACK !== undefined ? env.HOST_ALLOW_LOOPBACK === 'true' : options.standalone && !production;
  let allowList: HostAllowList;
  try {
    allowList = HostAllowList.parse(env.HOST_ALLOWLIST, { allowLoopback });
  } catch (error) {
    throw new HostConnectorConfigError(error instanceof Error ? error.message : String(error));
  }
  const defaultUrls: Partial<Record<HostMessageFormat, string>> = {};
  for (const format of HOST_MESSAGE_FORMATS) {
    const name = `HOST_DEFAULT_${format}_URL`;
    const text = env[name];
    if (!text) continue;
    if (transportOf(format) === 'mock') throw new HostConnectorConfigError(`${name}: MOCK is answered in process and takes no address`);
    let address;
    try {
      address = parseHostUrl(format, text);
    } catch (error) {
      throw new HostConnectorConfigError(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!allowList.allows(address.hostname, address.port)) throw new HostConnectorConfigError(`${name}: ${address.url} is not in HOST_ALLOWLIST`);
    defaultUrls[format] = text;
  }
  let specs: IsoSpecs;
  try {
    specs = isoSpecsFromEnv(env);
  } catch (error) {
    throw new HostConnectorConfigError(error instanceof Error ? error.message : String(error));
  }
  let zmk: Buffer;
  if (env.HOST_ZMK) zmk = zoneMasterKey(env.HOST_ZMK);
  else if (options.developmentZmk && options.standalone && !production) zmk = options.developmentZmk;
  else throw new HostConnectorConfigError('HOST_ZMK must be set (32 or 48 hex digits): working keys from sign-on arrive encrypted under it');
  const reconnectBase = integer(env, 'HOST_RECONNECT_BASE_MS', 250, 10, 60_000);
  const backoffBase = integer(env, 'HOST_REVERSAL_BACKOFF_MS', 1000, 10, 600_000);
  return {
    allowList,
    defaultUrls,
    specs,
    timeoutMs: integer(env, 'HOST_TIMEOUT_MS', 20_000, 100, 60_000),
    connectTimeoutMs: integer(env, 'HOST_CONNECT_TIMEOUT_MS', 5000, 100, 60_000),
    echoIntervalMs: integer(env, 'HOST_ECHO_INTERVAL_MS', 60_000, 0, 86_400_000),
    echoMaxMisses: integer(env, 'HOST_ECHO_MAX_MISSES', 3, 1, 100),
    zmk,
    reconnect: { baseMs: reconnectBase, maxMs: integer(env, 'HOST_RECONNECT_MAX_MS', 30_000, reconnectBase, 3_600_000) },
    recoveryGraceMs: integer(env, 'HOST_RECOVERY_GRACE_MS', 30_000, 0, 3_600_000),
    retentionMs: integer(env, 'HOST_RETENTION_DAYS', 30, 1, 3650) * 86_400_000,
    keyExchange: {
      intervalMs: integer(env, 'HOST_KEY_EXCHANGE_INTERVAL_MS', 86_400_000, 0, 30 * 86_400_000),
      retryMs: integer(env, 'HOST_KEY_EXCHANGE_RETRY_MS', 300_000, 10, 86_400_000),
      pollIntervalMs: integer(env, 'HOST_KEY_EXCHANGE_POLL_MS', 60_000, 10, 3_600_000),
    },
    reversal: {
      pollIntervalMs: integer(env, 'HOST_REVERSAL_POLL_MS', 5000, 10, 600_000),
      backoffBaseMs: backoffBase,
      backoffMaxMs: integer(env, 'HOST_REVERSAL_BACKOFF_MAX_MS', 300_000, backoffBase, 86_400_000),
      concurrency: integer(env, 'HOST_REVERSAL_CONCURRENCY', 4, 1, 64),
    },
  };
}
