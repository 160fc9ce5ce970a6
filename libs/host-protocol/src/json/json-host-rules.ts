import { JSON_HOST_FORMATS, JsonHostFormat } from '@app/contracts';
import { readFileSync } from 'node:fs';
import ezAioJson from '../../specs/ez_aio.json';
import ezWalletJson from '../../specs/ez_wallet.json';
import mpgsJson from '../../specs/mpgs_ap.json';
import pomeloJson from '../../specs/pomelo_json.json';
import { HostProtocolError } from '../dialect';

/**
 * How a JSON format's host answers, where hosts differ: the `host` section of the format's spec
 * file (`libs/host-protocol/specs/<format>.json`, replaced by an operator's `HOST_SPEC_<FORMAT>_FILE`).
 * The status word is the answer's own verdict (MPGS `result`, POMELO_JSON `status`, EZ_AIO
 * `txnStatus`, EZ_WALLET `state`); the code is the ISO 8583 code the format carries or maps to.
 */
export interface JsonHostRules {
  /** Status words that approve a request (and acknowledge a reversal). */
  readonly approvedStatuses: readonly string[];
  /** Status words that decline it: nothing moved. */
  readonly declinedStatuses: readonly string[];
  /**
   * Status words that do not say whether money moved: an authorisation, capture, refund or void
   * so answered (other than with HTTP 4xx, the host refusing the request as written) is reversed
   * like one that got no answer; a reversal so answered stays open and is repeated.
   */
  readonly unknownOutcomeStatuses: readonly string[];
  /** Codes that make a declining answer an unknown outcome all the same (e.g. 68, "response received too late"). */
  readonly unknownOutcomeCodes: readonly string[];
  /** The code of an approval for part of the amount, whose answer then carries the approved amount; null when the host never approves part. */
  readonly partialApprovalCode: string | null;
  /**
   * Codes with which a declining answer to a reversal acknowledges it all the same (94, "duplicate":
   * already reversed or voided); an approving status always acknowledges. Any other answer leaves
   * the reversal open, repeated by the reversal worker.
   */
  readonly reversalAcknowledgedCodes: readonly string[];
}

/** A JSON format's spec file: its name (the format it is for), a description, and the `host` section. */
export interface JsonHostSpec {
  readonly name: JsonHostFormat;
  readonly description?: string;
  readonly host: JsonHostRules;
}

const SPEC_KEYS = ['name', 'description', 'host'];
const HOST_KEYS: ReadonlyArray<keyof JsonHostRules> = [
  'approvedStatuses',
  'declinedStatuses',
  'unknownOutcomeStatuses',
  'unknownOutcomeCodes',
  'partialApprovalCode',
  'reversalAcknowledgedCodes',
];
const STATUS_WORD = /^[A-Za-z0-9_]{1,40}$/;
const RESPONSE_CODE = /^[0-9A-Za-z]{2}$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function listOf(raw: unknown, key: string, pattern: RegExp, what: string, nonEmpty: boolean, format: string): readonly string[] {
  if (!Array.isArray(raw) || (nonEmpty && raw.length === 0) || !raw.every((item) => typeof item === 'string' && pattern.test(item)))
    throw new HostProtocolError(format, `spec host ${key} must be a ${nonEmpty ? 'non-empty ' : ''}list of ${what}`);
  return Object.freeze([...new Set(raw as string[])]);
}

/**
 * Checks a JSON format's spec (usually parsed from its file), the keys its `host` section leaves
 * out taking the values of the format's built-in file; throws `HostProtocolError` naming the key on anything wrong, so a
 * typo in an operator's file stops the start instead of silently taking a default.
 */
export function compileJsonHostSpec(raw: unknown): JsonHostSpec {
  return compile(raw, (format) => BUILT_IN_JSON_SPECS[format].host);
}

/** {@link compileJsonHostSpec} with the defaults of `baseOf` (none while the built-in files themselves are compiled: they name every key). */
function compile(raw: unknown, baseOf: (format: JsonHostFormat) => JsonHostRules | undefined): JsonHostSpec {
  if (!isRecord(raw)) throw new HostProtocolError('JSON spec', 'must be an object');
  const name = raw.name;
  if (typeof name !== 'string' || !(JSON_HOST_FORMATS as readonly string[]).includes(name))
    throw new HostProtocolError('JSON spec', `name must be one of ${JSON_HOST_FORMATS.join(', ')}`);
  const format = name as JsonHostFormat;
  const unknownKeys = Object.keys(raw).filter((key) => !SPEC_KEYS.includes(key));
  if (unknownKeys.length > 0) throw new HostProtocolError(format, `spec: unknown key ${unknownKeys.map((key) => `"${key}"`).join(', ')}`);
  if (raw.description !== undefined && typeof raw.description !== 'string') throw new HostProtocolError(format, 'spec description must be text');
  const host = raw.host ?? {};
  if (!isRecord(host)) throw new HostProtocolError(format, 'spec host must be an object');
  const unknownHostKeys = Object.keys(host).filter((key) => !(HOST_KEYS as readonly string[]).includes(key));
  if (unknownHostKeys.length > 0) throw new HostProtocolError(format, `spec host: unknown key ${unknownHostKeys.map((key) => `"${key}"`).join(', ')}`);
  const base = baseOf(format);
  const fallback = <K extends keyof JsonHostRules>(key: K): JsonHostRules[K] => {
    if (base === undefined) throw new HostProtocolError(format, `spec host ${key} must be given (no built-in default to take)`);
    return base[key];
  };
  const words = (key: 'approvedStatuses' | 'declinedStatuses' | 'unknownOutcomeStatuses', nonEmpty: boolean) =>
    host[key] === undefined ? fallback(key) : listOf(host[key], key, STATUS_WORD, 'status words (letters, digits, _)', nonEmpty, format);
  const codes = (key: 'unknownOutcomeCodes' | 'reversalAcknowledgedCodes') =>
    host[key] === undefined ? fallback(key) : listOf(host[key], key, RESPONSE_CODE, '2-character response codes', false, format);
  const approvedStatuses = words('approvedStatuses', true);
  const declinedStatuses = words('declinedStatuses', true);
  const unknownOutcomeStatuses = words('unknownOutcomeStatuses', false);
  const unknownOutcomeCodes = codes('unknownOutcomeCodes');
  const reversalAcknowledgedCodes = codes('reversalAcknowledgedCodes');
  // A word in two lists would make one answer both an approval and a decline (or an unknown outcome): which wins would be code, not the file.
  const all = [...approvedStatuses, ...declinedStatuses, ...unknownOutcomeStatuses];
  const twice = all.filter((word, index) => all.indexOf(word) !== index);
  if (twice.length > 0) throw new HostProtocolError(format, `spec host: status ${[...new Set(twice)].join(', ')} is in more than one list`);
  const both = reversalAcknowledgedCodes.filter((code) => unknownOutcomeCodes.includes(code));
  if (both.length > 0) throw new HostProtocolError(format, `spec host: code ${both.join(', ')} cannot both acknowledge a reversal and leave the outcome unknown`);
  const partial = host.partialApprovalCode === undefined ? fallback('partialApprovalCode') : host.partialApprovalCode;
  if (partial !== null && (typeof partial !== 'string' || !RESPONSE_CODE.test(partial)))
    throw new HostProtocolError(format, 'spec host partialApprovalCode must be null or a 2-character response code');
  if (partial !== null && unknownOutcomeCodes.includes(partial))
    throw new HostProtocolError(format, 'spec host partialApprovalCode cannot be one of the unknownOutcomeCodes');
  return Object.freeze({
    name: format,
    ...(typeof raw.description === 'string' ? { description: raw.description } : {}),
    host: Object.freeze({ approvedStatuses, declinedStatuses, unknownOutcomeStatuses, unknownOutcomeCodes, partialApprovalCode: partial, reversalAcknowledgedCodes }),
  });
}

/** The built-in spec of each JSON format (`libs/host-protocol/specs/`): the documented defaults. */
export const BUILT_IN_JSON_SPECS: Readonly<Record<JsonHostFormat, JsonHostSpec>> = Object.freeze({
  MPGS_AP: compile(mpgsJson, () => undefined),
  POMELO_JSON: compile(pomeloJson, () => undefined),
  EZ_AIO: compile(ezAioJson, () => undefined),
  EZ_WALLET: compile(ezWalletJson, () => undefined),
});

/** The rules a JSON format speaks with its built-in spec file. */
export function jsonHostRulesOf(format: JsonHostFormat): JsonHostRules {
  return BUILT_IN_JSON_SPECS[format].host;
}

/**
 * Reads an operator's spec file for `format`: its `name` must be the format (a file put in the
 * wrong place is refused rather than read as another host's), and the keys its `host` section
 * leaves out take the built-in file's values. Throws `HostProtocolError` naming the file.
 */
export function loadJsonHostSpecFile(format: JsonHostFormat, path: string): JsonHostSpec {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new HostProtocolError(format, `spec file ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const spec = compileJsonHostSpec(json);
  if (spec.name !== format) throw new HostProtocolError(format, `spec file ${path}: its name is ${spec.name}, not ${format}`);
  return spec;
}
