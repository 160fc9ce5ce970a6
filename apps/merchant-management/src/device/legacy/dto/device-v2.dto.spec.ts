import { DomainError } from '@app/common';
import { invalidMid, invalidTid, validMid, validTid } from '@app/testing';
import fc from 'fast-check';
import { keptForEveryAcquirer } from '../../device-input';
import { parseLegacyExtParams, parseLegacyMethodList, toDeviceCreate, toDeviceUpdate } from './device-v2.dto';

function messageOf(work: () => unknown): string {
  try {
    work();
  } catch (error) {
    if (error instanceof DomainError) return error.message;
    throw error;
  }
  throw new Error('expected a DomainError');
}

describe('legacy device input onto the v1 model', () => {
  describe('MID and TID (fields 42 and 41)', () => {
    it('should refuse in methodList.all and in flat extParams every MID and TID a host cannot take, naming the field', () => {
      fc.assert(
        fc.property(invalidMid().filter((mid) => mid !== ''), invalidTid().filter((tid) => tid !== ''), validMid(), validTid(), (badMid, badTid, mid, tid) => {
          expect(messageOf(() => parseLegacyMethodList(JSON.stringify({ all: { mid: badMid, tid } })))).toMatch(/^methodList\.all\.mid (must be 1 to 15 letters, digits or spaces, not spaces only \(field 42\)|must be a string of 1 to 64 characters)$/);
          expect(messageOf(() => parseLegacyMethodList(JSON.stringify({ all: { mid, tid: badTid } })))).toMatch(/^methodList\.all\.tid (must be 1 to 8 letters or digits \(field 41\)|must be a string of 1 to 64 characters)$/);
          expect(messageOf(() => parseLegacyExtParams({ acqMid: badMid }))).toMatch(/^extParams\.acqMid /);
          expect(messageOf(() => parseLegacyExtParams({ acqTid: badTid }))).toMatch(/^extParams\.acqTid /);
          expect(parseLegacyMethodList(JSON.stringify({ all: { mid, tid } })).everyAcquirer).toEqual({ acqMid: mid, acqTid: tid });
        }),
        { numRuns: 300 },
      );
    });
  });

  describe('parseLegacyMethodList', () => {
    it('should read {"all": {mid, tid}} as every bound method with acqMid/acqTid', () => {
      expect(parseLegacyMethodList('{"all":{"mid":"M1","tid":"T1"}}')).toEqual({ codes: undefined, everyAcquirer: { acqMid: 'M1', acqTid: 'T1' } });
    });

    it('should read an empty map as every bound method without ids', () => {
      expect(parseLegacyMethodList('{}')).toEqual({ codes: undefined, everyAcquirer: {} });
    });

    it('should pass a comma-separated code list through as the v1 methodList', () => {
      expect(parseLegacyMethodList('01,02')).toEqual({ codes: '01,02', everyAcquirer: {} });
    });

    it('should name a key other than all', () => {
      expect(messageOf(() => parseLegacyMethodList('{"01":{"mid":"M"}}'))).toBe('methodList.01 is not an accepted key (expected all)');
    });
  });

  describe('parseLegacyExtParams', () => {
    it('should split per-acquirer fields from the fields for every acquirer', () => {
      expect(parseLegacyExtParams({ acqMid: 'M', acquirers: { '7': { acqTid: 'T' } } })).toEqual({
        perAcquirer: { acquirers: { '7': { acqTid: 'T' } } },
        everyAcquirer: { acqMid: 'M' },
      });
    });

    it('should read a JSON string like the object', () => {
      expect(parseLegacyExtParams('{"acqMid":"M","acqTid":"T"}')).toEqual({ perAcquirer: undefined, everyAcquirer: { acqMid: 'M', acqTid: 'T' } });
    });

    it('should name a field that is not a string', () => {
      expect(messageOf(() => parseLegacyExtParams({ acqTid: 5 }))).toBe('extParams.acqTid must be a string of 1 to 64 characters');
    });
  });

  describe('toDeviceCreate', () => {
    it('should map activateCodeAlias to deviceAlias and leave out what was not sent', () => {
      expect(toDeviceCreate({ mchId: '1', activateCodeAlias: 'Till', deviceType: 'COTS' })).toEqual({
        create: { mchId: '1', deviceAlias: 'Till', deviceType: 'COTS' },
        everyAcquirer: {},
      });
    });

    it('should let extParams fields win over the MID/TID of methodList.all', () => {
      const { create, everyAcquirer } = toDeviceCreate({
        mchId: '1',
        activateCodeAlias: 'Till',
        deviceType: 'COTS',
        methodList: '{"all":{"mid":"M1","tid":"T1"}}',
        extParams: { acqMid: 'M2' },
      });
      expect(create).not.toHaveProperty('methodList');
      expect(create).not.toHaveProperty('extParams');
      expect(everyAcquirer).toEqual({ acqMid: 'M2', acqTid: 'T1' });
    });
  });

  describe('toDeviceUpdate', () => {
    it('should make the legacy methodList map mean every bound method (null)', () => {
      expect(toDeviceUpdate({ methodList: '{"all":{"tid":"T9"}}' })).toEqual({ update: { methodList: null }, everyAcquirer: { acqTid: 'T9' } });
    });

    it('should replace the stored extParams with flat fields spread over every acquirer', () => {
      expect(toDeviceUpdate({ extParams: '{"acqMid":"M"}' })).toEqual({ update: { extParams: null }, everyAcquirer: { acqMid: 'M' } });
    });

    it('should clear extParams sent as null', () => {
      expect(toDeviceUpdate({ extParams: null, activateCodeAlias: null })).toEqual({ update: { extParams: null, deviceAlias: null }, everyAcquirer: {} });
    });
  });

  describe('keptForEveryAcquirer', () => {
    it('should answer extParams unchanged when there is nothing to keep', () => {
      expect(keptForEveryAcquirer(null, {})).toBeNull();
      expect(keptForEveryAcquirer(null, undefined)).toBeNull();
    });

    it('should keep the fields for every acquirer even when none is bound (nothing silently dropped)', () => {
      expect(keptForEveryAcquirer(null, { acqMid: 'M' })).toEqual({ allAcquirers: { acqMid: 'M' } });
    });

    it('should keep the fields over those already kept, beside the per-acquirer ones', () => {
      const extParams = { acquirers: { '2': { acqMid: 'OLD', subMid: 'S' } }, allAcquirers: { acqMid: 'A', acqTid: 'B' } };
      expect(keptForEveryAcquirer(extParams, { acqMid: 'M' })).toEqual({
        acquirers: { '2': { acqMid: 'OLD', subMid: 'S' } },
        allAcquirers: { acqMid: 'M', acqTid: 'B' },
      });
    });
  });
});
