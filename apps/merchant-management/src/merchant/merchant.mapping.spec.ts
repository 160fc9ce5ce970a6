import { Merchant } from './merchant';
import { toMerchantDto } from './dto/merchant.dto';
import { BindingRecord } from '../activation-profile/binding-record';

const merchant = {
  uuid: 'b3f0b8f4-6f6e-4a53-9a70-6a5d7c1f0a11',
  mchId: '123456789012345',
  groupId: 'g1',
  mchName: 'Kedai',
  timeZone: 'Asia/Kuala_Lumpur',
  contactName: 'A',
  contactEmail: 'a@example.com',
  state: 1,
  currency: 'MYR',
  passcodeHash: 'scrypt$16384$x$y',
  createdAt: new Date('2026-01-02T03:04:05Z'),
  updatedAt: new Date('2026-01-02T03:04:05Z'),
} as Merchant;

function binding(profileId: number, currency: string, codes: string[]): BindingRecord {
  return {
    bindingId: profileId,
    merchantUuid: merchant.uuid,
    acquirerProfileId: profileId,
    profileName: `p${profileId}`,
    acqType: 'card',
    currency,
    mid: null,
    connMessageFormat: 'SVC_ENABLER',
    enablerMsgFormat: 'MOCK',
    enablerParams: null,
    connUrl: null,
    connExtraParams: null,
    methods: codes.map((code) => ({ paymentMethodCode: code, allows: [], emvs: [{ emvId: Number(code), emvName: `e${code}`, aid: null }] })),
  };
}

describe('merchant response mapping', () => {
  it('should list each bound method code once across bindings', () => {
    const dto = toMerchantDto({ merchant, bindings: [binding(1, 'MYR', ['01', '02']), binding(2, 'USD', ['01', '03'])], hasKioskTerminal: false });
    expect(dto.supportedPayments).toEqual(['01', '02', '03']);
  });

  it('should summarise each binding with JSON-encoded methodList and emvList', () => {
    const dto = toMerchantDto({ merchant, bindings: [binding(1, 'MYR', ['01', '02'])], hasKioskTerminal: false });
    expect(dto.acquirers).toEqual([{ profileId: 1, profileName: 'p1', currency: 'MYR', acqType: 'card', methodList: '{"01":[],"02":[]}', emvList: '{"01":[1],"02":[2]}' }]);
  });

  it('should show the passcode masked and mchId as id', () => {
    const dto = toMerchantDto({ merchant, bindings: [], hasKioskTerminal: false });
    expect(dto.passcode).toBe('******');
    expect(dto.id).toBe(merchant.mchId);
    expect(dto.createdAt).toBe('2026-01-02T03:04:05+0000');
    expect(dto.supportedPayments).toEqual([]);
  });
});
