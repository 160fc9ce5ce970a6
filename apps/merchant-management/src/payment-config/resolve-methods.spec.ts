import { DomainError } from '@app/common';
import { AcquirerProfile } from '../acquirer/acquirer-profile';
import { resolveMethods } from './payment-config.service';

const record = {
  profile: { id: 7, profileName: 'Acq', acqType: 'card', methodList: { '01': ['SALE'], '02': [] } } as unknown as AcquirerProfile,
  emvList: { '01': [11, 12], '02': [21] },
};

describe('resolveMethods', () => {
  it('should bind every method of the profile with its EMV list when paymentMethods is omitted', () => {
    expect(resolveMethods(record, undefined)).toEqual([
      { paymentMethodCode: '01', allows: ['SALE'], emvIds: [11, 12] },
      { paymentMethodCode: '02', allows: [], emvIds: [21] },
    ]);
  });

  it("should default a method's EMV configs to the profile's", () => {
    expect(resolveMethods(record, [{ paymentMethodCode: '01' }])).toEqual([{ paymentMethodCode: '01', allows: ['SALE'], emvIds: [11, 12] }]);
  });

  it('should refuse a method the profile does not offer', () => {
    expect(() => resolveMethods(record, [{ paymentMethodCode: '03' }])).toThrow(DomainError);
  });

  it("should refuse an EMV config outside the profile's list for that method", () => {
    expect(() => resolveMethods(record, [{ paymentMethodCode: '02', emvs: [{ emvId: 11 }] }])).toThrow(/EMV config 11 is not in the emvList/);
  });

  it('should refuse a method listed twice', () => {
    expect(() => resolveMethods(record, [{ paymentMethodCode: '01' }, { paymentMethodCode: '01' }])).toThrow(/listed twice/);
  });
});
