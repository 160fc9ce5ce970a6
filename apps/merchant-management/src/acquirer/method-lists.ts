import { DomainError, parseEmbeddedJson } from '@app/common';
import { isPaymentMethodCode, PAYMENT_METHOD_CODES } from '@app/contracts';
import { MethodList } from './acquirer-profile';

/** Payment method code to EMV config ids, in the order given. */
export type EmvList = Record<string, number[]>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Decodes a JSON-encoded field (v1 sends maps as strings); 10000 naming the field otherwise. */
export function decodeJsonField(value: unknown, field: string): unknown {
  if (typeof value !== 'string') return value;
  const parsed = parseEmbeddedJson(value);
  if ('problem' in parsed) throw DomainError.validation(`${field} ${parsed.problem}`);
  return parsed.value;
}

function requireMethodKey(key: string, field: string): void {
  if (!isPaymentMethodCode(key)) throw DomainError.validation(`${field} key ${key} is not a payment method code (${PAYMENT_METHOD_CODES.join(', ')})`);
}

/** Validates a methodList map: method code to allowed transaction types (strings). */
export function parseMethodList(raw: unknown, field = 'methodList'): MethodList {
  const value = decodeJsonField(raw, field);
  if (!isPlainObject(value)) throw DomainError.validation(`${field} must be a JSON object mapping payment method codes to lists`);
  const result: MethodList = {};
  for (const [key, allows] of Object.entries(value)) {
    requireMethodKey(key, field);
    if (!Array.isArray(allows) || allows.length > 16 || !allows.every((a) => typeof a === 'string' && a.length > 0 && a.length <= 32)) {
      throw DomainError.validation(`${field}.${key} must be a list of transaction type names (may be empty)`);
    }
    result[key] = [...new Set(allows as string[])];
  }
  return result;
}

/** Validates an emvList map: method code to EMV config ids (0 means "none" and is dropped). */
export function parseEmvList(raw: unknown, field = 'emvList'): EmvList {
  const value = decodeJsonField(raw, field);
  if (!isPlainObject(value)) throw DomainError.validation(`${field} must be a JSON object mapping payment method codes to EMV config ids`);
  const result: EmvList = {};
  for (const [key, ids] of Object.entries(value)) {
    requireMethodKey(key, field);
    if (!Array.isArray(ids) || ids.length > 32 || !ids.every((id) => Number.isInteger(id) && (id as number) >= 0 && (id as number) < 2 ** 31)) {
      throw DomainError.validation(`${field}.${key} must be a list of EMV config ids (integers)`);
    }
    result[key] = [...new Set((ids as number[]).filter((id) => id !== 0))];
  }
  return result;
}

/**
 * Rule 1 of the acquirer endpoints: a profile names at least one method; a card profile has an
 * emvList, and every methodList key has a non-zero EMV id there; emvList names no other method.
 */
export function checkMethodAndEmvLists(acqType: string, methodList: MethodList, emvList: EmvList | undefined): void {
  const methods = Object.keys(methodList);
  if (methods.length === 0) throw DomainError.validation('methodList must name at least one payment method');
  if (emvList) {
    for (const key of Object.keys(emvList)) {
      if (!(key in methodList)) throw DomainError.validation(`emvList key ${key} is not in methodList`);
    }
  }
  if (acqType !== 'card') return;
  if (!emvList) throw DomainError.validation('emvList is required for a card acquirer profile');
  for (const method of methods) {
    if (!emvList[method] || emvList[method].length === 0) {
      throw DomainError.validation(`emvList has no EMV config id for payment method ${method} of methodList`);
    }
  }
}
