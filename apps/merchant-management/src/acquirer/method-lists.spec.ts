import { DomainError } from '@app/common';
import { checkMethodAndEmvLists, parseEmvList, parseMethodList } from './method-lists';

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof DomainError) return error.message;
    throw error;
  }
  throw new Error('expected a DomainError');
}

describe('acquirer method and EMV lists', () => {
  it('should accept a JSON-encoded methodList and an object alike', () => {
    expect(parseMethodList('{"01":[],"02":["SALE"]}')).toEqual({ '01': [], '02': ['SALE'] });
    expect(parseMethodList({ '03': [] })).toEqual({ '03': [] });
  });

  it('should name the bad key of a methodList', () => {
    expect(messageOf(() => parseMethodList('{"07":[]}'))).toContain('methodList key 07 is not a payment method code');
  });

  it('should refuse a methodList that is not JSON', () => {
    expect(messageOf(() => parseMethodList('{"01":'))).toBe('methodList must be a JSON-encoded object');
  });

  it('should drop zero ids from an emvList and refuse non-integers', () => {
    expect(parseEmvList('{"01":[0,3,3]}')).toEqual({ '01': [3] });
    expect(messageOf(() => parseEmvList('{"01":["3"]}'))).toContain('emvList.01 must be a list of EMV config ids');
  });

  it('should refuse a card profile whose method has only zero EMV ids', () => {
    expect(messageOf(() => checkMethodAndEmvLists('card', { '01': [] }, parseEmvList('{"01":[0]}')))).toContain('no EMV config id for payment method 01');
  });

  it('should refuse a card profile without emvList', () => {
    expect(messageOf(() => checkMethodAndEmvLists('card', { '01': [] }, undefined))).toBe('emvList is required for a card acquirer profile');
  });

  it('should accept a qr profile without emvList', () => {
    expect(() => checkMethodAndEmvLists('qr', { '01': [] }, undefined)).not.toThrow();
  });

  it('should refuse an emvList key missing from methodList', () => {
    expect(messageOf(() => checkMethodAndEmvLists('card', { '01': [] }, { '01': [1], '02': [2] }))).toBe('emvList key 02 is not in methodList');
  });
});
