import { describe as describeMessage } from './describe';
import { iccData } from './test-factories';
import { encodeTlv } from './tlv';

describe('describe', () => {
  const message = {
    mti: '0200',
    fields: {
      2: '4761739001010119',
      4: '000000001000',
      35: '4761739001010119=25121011234',
      36: '011234567890=1234',
      45: 'B4761739001010119^DOE/JOHN^2512101',
      52: Buffer.from('0123456789abcdef', 'hex'),
      64: Buffer.from('a1b2c3d4e5f60718', 'hex'),
    },
  };

  it('should keep only the first 6 and last 4 digits of the PAN by default', () => {
    expect(describeMessage(message).fields[2]).toBe('476173******0119');
  });

  it('should mask track data and the PIN block entirely by default', () => {
    const { fields } = describeMessage(message);
    const shown = JSON.stringify(fields);
    for (const secret of ['25121011234', '1234567890', 'DOE/JOHN', '0123456789']) expect(shown).not.toContain(secret);
    expect([fields[35], fields[36], fields[45], fields[52]].every((value) => value.startsWith('[masked'))).toBe(true);
  });

  it('should show other fields, bytes as uppercase hex', () => {
    expect(describeMessage(message)).toMatchObject({ mti: '0200', fields: { 4: '000000001000', 64: 'A1B2C3D4E5F60718' } });
  });

  it('should show everything only when asked to', () => {
    expect(describeMessage(message, { unmasked: true }).fields[35]).toBe('4761739001010119=25121011234');
  });

  it('should mask a short PAN entirely', () => {
    expect(describeMessage({ mti: '0200', fields: { 2: '123456789012' } }).fields[2]).toBe('************');
  });
});

describe('describe field 55', () => {
  const secrets: Record<string, string> = {
    '57': '4761739001010119D25122011758928889',
    '56': '42343736313733393030313031303131395E444F452F4A4F484E5E32353132',
    '5F20': '444F452F4A4F484E',
    '9F1F': '3131353839323838',
    '9F20': '3939383838373737',
    '9F6B': '4761739001010119D2512201',
    '99': '1234567890ABCDEF',
    '5F24': '251231',
  };
  const icc = iccData({ '5A': '4761739001010119', ...secrets });
  const shown = describeMessage({ mti: '0200', fields: { 55: icc } }).fields[55];

  it('should show the other EMV tags in hex', () => {
    expect(shown).toContain('9F02=000000001000');
    expect(shown).toContain('9F26=8E19EB1A3C1D3B8C');
    expect(shown).toContain('84=A0000000031010');
  });

  it('should keep only the first 6 and last 4 digits of the PAN in tag 5A', () => {
    expect(shown).toContain('5A=476173******0119');
  });

  it('should drop the F padding of an odd-length PAN in tag 5A before masking it', () => {
    expect(describeMessage({ mti: '0200', fields: { 55: iccData({ '5A': '374245455400126F' }) } }).fields[55]).toContain('5A=374245*****0126');
  });

  it.each(Object.keys(secrets))('should mask tag %s entirely', (tag) => {
    expect(shown).toContain(`${tag}=[masked]`);
    expect(shown).not.toContain(secrets[tag]);
  });

  it('should open templates so card data inside one is masked too', () => {
    const record = encodeTlv([
      {
        tag: '70',
        value: encodeTlv([
          { tag: '57', value: Buffer.from('4761739001010119D2512', 'hex') },
          { tag: '5F34', value: Buffer.from('01', 'hex') },
        ]),
      },
    ]);
    expect(describeMessage({ mti: '0110', fields: { 55: record } }).fields[55]).toBe('70{57=[masked] 5F34=01}');
  });

  it('should mask field 55 whole when it is not well-formed TLV', () => {
    expect(describeMessage({ mti: '0200', fields: { 55: Buffer.from('5A08476173', 'hex') } }).fields[55]).toBe('[masked bytes]');
  });

  it('should read field 55 carried as hex text', () => {
    expect(describeMessage({ mti: '0200', fields: { 55: iccData({ '57': '4761739001010119D2512' }).toString('hex') } }).fields[55]).toContain('57=[masked]');
  });

  it('should show field 55 as raw hex only when asked to', () => {
    expect(describeMessage({ mti: '0200', fields: { 55: icc } }, { unmasked: true }).fields[55]).toBe(icc.toString('hex').toUpperCase());
  });
});
