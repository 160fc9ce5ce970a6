import { AllowList, ConfigError, custom, errorMessage, flag, integer, text, urlWithCredentials, ValuesOf, Variable } from '@app/common';
import { HOST_MESSAGE_FORMATS, HostMessageFormat, ISO_HOST_FORMATS, IsoHostFormat, JSON_HOST_FORMATS, JsonHostFormat } from '@app/contracts';
import { IsoSpecs, isoSpecsFrom, JsonSpecs, jsonSpecsFrom, specFileVariable } from '@app/host-protocol';
import { hostConnectorTimingVariables } from '@app/runtime';
import { parseHostUrl, transportOf } from '../routing/host-address';

/** Everything the host connector is configured with; read once at start. */
export interface HostConnectorConfig {
  allowList: AllowList;
  /** HOST_DEFAULT_<FORMAT>_URL: where a format goes when the acceptance carries no connUrl. */
  defaultUrls: Partial<Record<HostMessageFormat, string>>;
  /**
   * HOST_SPEC_<FORMAT>_FILE: an operator's message spec file replacing the built-in preset of an
   * ISO format (the acquirer's own field definitions); loaded and checked at start.
   */
  specs: IsoSpecs;
  /**
   * HOST_SPEC_<FORMAT>_FILE of a JSON format: an operator's spec file replacing the built-in one
   * (`libs/host-protocol/specs/`): which answers approve, decline or leave the outcome unknown,
   * the partial approval code, the codes that acknowledge a reversal; loaded and checked at start.
   */
  jsonSpecs: JsonSpecs;
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
  /**
   * HOST_CARD_DATA_DAYS: how long the sealed card data of a transaction is kept for its
   * follow-ups (refund, capture, void, reversal) after it was sent; then it is deleted. The
   * platform's refund window for card data: a settled sale's card stays this long unless it is
   * refunded in full, voided or reversed sooner.
   */
  cardDataRetentionMs: number;
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

/** HOST_DEFAULT_<FORMAT>_URL of every host format. */
const DEFAULT_URL_VARIABLES = Object.fromEntries(HOST_MESSAGE_FORMATS.map((format) => [`HOST_DEFAULT_${format}_URL`, urlWithCredentials()])) as Record<
  `HOST_DEFAULT_${HostMessageFormat}_URL`,
  Variable<string | undefined>
>;

/** HOST_SPEC_<FORMAT>_FILE of every ISO and JSON format. */
const SPEC_FILE_VARIABLES = Object.fromEntries([...ISO_HOST_FORMATS, ...JSON_HOST_FORMATS].map((format) => [specFileVariable(format), text()])) as Record<
  `HOST_SPEC_${IsoHostFormat | JsonHostFormat}_FILE`,
  Variable<string | undefined>
>;

/** The connector's variables (apps/host-connector/README.md). */
export const hostConnectorVariables = {
  HOST_ZMK: custom((value) => {
    if (value === undefined) return undefined;
    if (!/^([0-9A-Fa-f]{32}|[0-9A-Fa-f]{48})$/.test(value)) throw new Error('must be 32 or 48 hex digits (a double- or triple-length 3DES key)');
    return Buffer.from(value, 'hex');
  }, 'secret'),
  HOST_ALLOWLIST: text(),
  HOST_ALLOW_LOOPBACK: custom((value) => (value === undefined ? undefined : flag(false).read(value))),
  ...DEFAULT_URL_VARIABLES,
  ...SPEC_FILE_VARIABLES,
  ...hostConnectorTimingVariables,
  HOST_CONNECT_TIMEOUT_MS: integer(5000, 100, 60_000),
  HOST_ECHO_INTERVAL_MS: integer(60_000, 0, 86_400_000),
  HOST_ECHO_MAX_MISSES: integer(3, 1, 100),
  HOST_RECONNECT_BASE_MS: integer(250, 10, 60_000),
  HOST_RECONNECT_MAX_MS: integer(30_000, 10, 3_600_000),
  HOST_RETENTION_DAYS: integer(30, 1, 3650),
  HOST_CARD_DATA_DAYS: integer(30, 1, 400),
  HOST_KEY_EXCHANGE_INTERVAL_MS: integer(86_400_000, 0, 30 * 86_400_000),
  HOST_KEY_EXCHANGE_RETRY_MS: integer(300_000, 10, 86_400_000),
  HOST_KEY_EXCHANGE_POLL_MS: integer(60_000, 10, 3_600_000),
  HOST_REVERSAL_BACKOFF_MS: integer(1000, 10, 600_000),
  HOST_REVERSAL_BACKOFF_MAX_MS: integer(300_000, 10, 86_400_000),
  HOST_REVERSAL_CONCURRENCY: integer(4, 1, 64),
};

export type HostConnectorSettings = ValuesOf<typeof hostConnectorVariables>;

/** A maximum that must not be below its base (the base is only known once read). */
function notBelow(name: string, value: number, base: number, max: number): number {
  if (value < base) throw new ConfigError([`${name} must be from ${base} to ${max}, got ${value}`]);
  return value;
}

/**
 * Checks the connector's settings together. `developmentZmk` is used when HOST_ZMK is not set
 * and the process may run on development keys (standalone outside production); otherwise a
 * missing HOST_ZMK is an error. Loopback hosts are allowed in standalone, or with
 * HOST_ALLOW_LOOPBACK=true.
 */
export function hostConnectorConfigFrom(
  values: HostConnectorSettings,
  options: { standalone: boolean; production: boolean; developmentZmk?: Buffer },
): HostConnectorConfig {
  const allowLoopback = values.HOST_ALLOW_LOOPBACK ?? (options.standalone && !options.production);
  let allowList: AllowList;
  try {
    allowList = AllowList.parse(values.HOST_ALLOWLIST, { allowLoopback, variable: 'HOST_ALLOWLIST' });
  } catch (error) {
    throw new ConfigError([errorMessage(error)]);
  }
  const defaultUrls: Partial<Record<HostMessageFormat, string>> = {};
  for (const format of HOST_MESSAGE_FORMATS) {
    const name = `HOST_DEFAULT_${format}_URL` as const;
    const text = values[name];
    if (!text) continue;
    if (transportOf(format) === 'mock') throw new ConfigError([`${name}: MOCK is answered in process and takes no address`]);
    let address;
    try {
      address = parseHostUrl(format, text);
    } catch (error) {
      throw new ConfigError([`${name}: ${errorMessage(error)}`]);
    }
    if (!allowList.allows(address.hostname, address.port)) throw new ConfigError([`${name}: ${address.url} is not in HOST_ALLOWLIST`]);
    defaultUrls[format] = text;
  }
  let specs: IsoSpecs;
  let jsonSpecs: JsonSpecs;
  try {
    specs = isoSpecsFrom(values);
    jsonSpecs = jsonSpecsFrom(values);
  } catch (error) {
    throw new ConfigError([errorMessage(error)]);
  }
  let zmk: Buffer;
  if (values.HOST_ZMK) zmk = values.HOST_ZMK;
  else if (options.developmentZmk && options.standalone && !options.production) zmk = options.developmentZmk;
  else throw new ConfigError(['HOST_ZMK must be set (32 or 48 hex digits): working keys from sign-on arrive encrypted under it']);
  return {
    allowList,
    defaultUrls,
    specs,
    jsonSpecs,
    timeoutMs: values.HOST_TIMEOUT_MS,
    connectTimeoutMs: values.HOST_CONNECT_TIMEOUT_MS,
    echoIntervalMs: values.HOST_ECHO_INTERVAL_MS,
    echoMaxMisses: values.HOST_ECHO_MAX_MISSES,
    zmk,
    reconnect: {
      baseMs: values.HOST_RECONNECT_BASE_MS,
      maxMs: notBelow('HOST_RECONNECT_MAX_MS', values.HOST_RECONNECT_MAX_MS, values.HOST_RECONNECT_BASE_MS, 3_600_000),
    },
    recoveryGraceMs: values.HOST_RECOVERY_GRACE_MS,
    retentionMs: values.HOST_RETENTION_DAYS * 86_400_000,
    cardDataRetentionMs: values.HOST_CARD_DATA_DAYS * 86_400_000,
    keyExchange: {
      intervalMs: values.HOST_KEY_EXCHANGE_INTERVAL_MS,
      retryMs: values.HOST_KEY_EXCHANGE_RETRY_MS,
      pollIntervalMs: values.HOST_KEY_EXCHANGE_POLL_MS,
    },
    reversal: {
      pollIntervalMs: values.HOST_REVERSAL_POLL_MS,
      backoffBaseMs: values.HOST_REVERSAL_BACKOFF_MS,
      backoffMaxMs: notBelow('HOST_REVERSAL_BACKOFF_MAX_MS', values.HOST_REVERSAL_BACKOFF_MAX_MS, values.HOST_REVERSAL_BACKOFF_MS, 86_400_000),
      concurrency: values.HOST_REVERSAL_CONCURRENCY,
    },
  };
}
