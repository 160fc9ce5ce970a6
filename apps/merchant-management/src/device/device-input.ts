import { decodeJsonObjectText, DomainError } from '@app/common';
import {
  ACCEPTANCE_PARAM_RULES,
  countryOfNumeric,
  currencyOfNumeric,
  HOST_MID_PATTERN,
  HOST_MID_RULE,
  HOST_TID_PATTERN,
  HOST_TID_RULE,
  HostFieldRule,
  isPaymentMethodCode,
  meetsHostFieldRule,
} from '@app/contracts';

/** EMV terminal parameter keys a device may carry (v1 plus the legacy Amex reader keys). */
export const EMV_PARAM_KEYS = [
  'amexFloorLimit',
  'terminalCountryCode',
  'txnCurrencyCode',
  'terminalType',
  'terminalCapability',
  'emvFlags',
  'amexExReaderCapability',
  'amexReaderCapability',
] as const;

/** `01,02` → ['01', '02']; 10000 naming an unknown code. */
export function parseMethodCodes(value: string, field = 'methodList'): string[] {
  const codes = value
    .split(',')
    .map((code) => code.trim())
    .filter((code) => code.length > 0);
  if (codes.length === 0) throw DomainError.validation(`${field} must name at least one payment method code`);
  for (const code of codes) if (!isPaymentMethodCode(code)) throw DomainError.validation(`${field} contains ${code}, which is not a payment method code`);
  return [...new Set(codes)].sort();
}

/**
 * The acquirer fields that go on the wire: the MID (field 42) and TID (field 41) a host signs on
 * with, the acquiring institution id (32) and the sub-merchant (43).
 */
const HOST_FIELDS: Readonly<Record<string, HostFieldRule>> = {
  acqMid: [HOST_MID_PATTERN, HOST_MID_RULE],
  acqTid: [HOST_TID_PATTERN, HOST_TID_RULE],
  ...ACCEPTANCE_PARAM_RULES,
};

/**
 * A per-acquirer field value: a string of at most 64 characters, and for `acqMid`, `acqTid`,
 * `acqInstId` and `subMchDba` what a host takes; 10000 naming `path` otherwise.
 */
export function checkAcquirerField(name: string, value: unknown, path: string): string {
  if (typeof value !== 'string' || value.length > 64) throw DomainError.validation(`${path} must be a string of at most 64 characters`);
  const rule = HOST_FIELDS[name];
  if (rule !== undefined && !meetsHostFieldRule(rule, value)) throw DomainError.validation(`${path} ${rule[1]}`);
  return value;
}

/** Checks a map of per-acquirer field values (`acqMid`, `acqTid`, …) at `path`. */
function checkAcquirerFields(fields: unknown, path: string): void {
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) throw DomainError.validation(`${path} must be an object of field values`);
  for (const [name, fieldValue] of Object.entries(fields)) checkAcquirerField(name, fieldValue, `${path}.${name}`);
}

/**
 * Checks `{acquirers: {<profileId>: {<field>: <string>}}, allAcquirers: {<field>: <string>}}` and
 * nothing else: `acquirers` keyed by profiles bound to the merchant; `allAcquirers` holds fields for
 * every acquirer the merchant is bound to, now or later (the legacy "MID/TID for all").
 */
export function checkExtParams(value: unknown, boundProfileIds: number[], field = 'extParams'): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw DomainError.validation(`${field} must be an object {acquirers: {<profileId>: {...}}}`);
  for (const key of Object.keys(value)) {
    if (key !== 'acquirers' && key !== 'allAcquirers') throw DomainError.validation(`${field}.${key} is not an accepted field (expected acquirers, allAcquirers)`);
  }
  const { acquirers, allAcquirers } = value as { acquirers?: unknown; allAcquirers?: unknown };
  if (allAcquirers !== undefined) checkAcquirerFields(allAcquirers, `${field}.allAcquirers`);
  if (acquirers === undefined) return value as Record<string, unknown>;
  if (typeof acquirers !== 'object' || acquirers === null || Array.isArray(acquirers)) throw DomainError.validation(`${field}.acquirers must be an object keyed by acquirer profile id`);
  for (const [profileId, fields] of Object.entries(acquirers)) {
    const path = `${field}.acquirers.${profileId}`;
    if (!/^\d+$/.test(profileId) || !boundProfileIds.includes(Number(profileId))) {
      throw DomainError.validation(`${path}: ${profileId} is not an acquirer profile bound to this merchant`);
    }
    checkAcquirerFields(fields, path);
  }
  return value as Record<string, unknown>;
}

/**
 * What each EMV terminal parameter must be, and the words of its 10000 (docs/decisions.md, "EMV
 * terminal parameter formats"): the EMV tag it fills on the device, in the tag's own format.
 */
const EMV_PARAM_RULES: Readonly<Record<(typeof EMV_PARAM_KEYS)[number], { valid: (value: string) => boolean; rule: string }>> = {
  amexFloorLimit: { valid: (value) => /^[0-9]{1,12}$/.test(value), rule: 'must be an amount in minor units, 1 to 12 digits (EMV n12, for example 0)' },
  // Sent, it replaces the merchant's: it must name a country (an empty one would go out as no terminal country).
  terminalCountryCode: { valid: (value) => countryOfNumeric(value) !== undefined, rule: 'must be an ISO 3166 numeric country code (for example 0458)' },
  txnCurrencyCode: { valid: (value) => currencyOfNumeric(value) !== undefined, rule: 'must be an ISO 4217 numeric currency code (EMV 5F2A, for example 0458)' },
  terminalType: {
    valid: (value) => /^[1-3][1-6]$/.test(value),
    rule: 'must be an EMV terminal type (9F35): two digits, the first 1 to 3 (who operates it), the second 1 to 6 (attended or not, online or offline), for example 22',
  },
  terminalCapability: { valid: (value) => /^[0-9A-Fa-f]{6}$/.test(value), rule: 'must be the EMV terminal capabilities (9F33): 3 bytes, 6 hex digits, for example E0F8C8' },
  emvFlags: { valid: (value) => /^[0-9A-Fa-f]{1,8}$/.test(value), rule: 'must be 1 to 8 hex digits (flags, for example 0)' },
  amexExReaderCapability: {
    valid: (value) => /^[0-9A-Fa-f]{8}$/.test(value),
    rule: 'must be the Amex enhanced contactless reader capabilities (9F6E): 4 bytes, 8 hex digits, for example D8E00000',
  },
  amexReaderCapability: { valid: (value) => /^[0-9A-Fa-f]{2}$/.test(value), rule: 'must be the Amex contactless reader capabilities (9F6D): 1 byte, 2 hex digits, for example C8' },
};

/** The formats of {@link EMV_PARAM_RULES}, for the API documents. */
export const EMV_PARAM_FORMATS =
  'each in its EMV format: terminalType 9F35 (two digits, first 1-3, second 1-6, e.g. 22), terminalCapability 9F33 (6 hex digits), txnCurrencyCode (ISO 4217 numeric, e.g. 0458), terminalCountryCode (ISO 3166 numeric), amexFloorLimit (1-12 digits), amexReaderCapability 9F6D (2 hex digits), amexExReaderCapability 9F6E (8 hex digits), emvFlags (1-8 hex digits)';

/** Checks an EMV terminal parameter object: known keys, each a string in its tag's format ({@link EMV_PARAM_RULES}). */
export function checkEmvParams(value: unknown, field = 'emvParams'): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw DomainError.validation(`${field} must be an object`);
  for (const [key, param] of Object.entries(value)) {
    if (!Object.hasOwn(EMV_PARAM_RULES, key)) throw DomainError.validation(`${field}.${key} is not an EMV terminal parameter (${EMV_PARAM_KEYS.join(', ')})`);
    if (typeof param !== 'string' || param.length > 32) throw DomainError.validation(`${field}.${key} must be a string of at most 32 characters`);
    const { valid, rule } = EMV_PARAM_RULES[key as (typeof EMV_PARAM_KEYS)[number]];
    if (!valid(param)) throw DomainError.validation(`${field}.${key} ${rule}`);
  }
  return value as Record<string, string>;
}

/** An object field of PUT device as given (legacy), or decoded from its JSON text (v1). */
export function decodedObject(value: Record<string, unknown> | string, field: string): Record<string, unknown> {
  if (typeof value !== 'string') return value;
  return decodeJsonObjectText(value, field);
}

/**
 * Keeps `fields` (the legacy "one MID/TID for all") for every acquirer the merchant is bound to,
 * now or later, under `extParams.allAcquirers`, over what it held there; answers `extParams` as it
 * was when there is nothing to keep. Nothing is dropped for want of a binding: a merchant bound
 * later gets them on its re-push (docs/decisions.md, "Spec conformance left over").
 */
export function keptForEveryAcquirer(extParams: Record<string, unknown> | null, fields: Record<string, string> | undefined): Record<string, unknown> | null {
  if (!fields || Object.keys(fields).length === 0) return extParams;
  const kept = (extParams?.allAcquirers ?? {}) as Record<string, unknown>;
  return { ...(extParams ?? {}), allAcquirers: { ...kept, ...fields } };
}
