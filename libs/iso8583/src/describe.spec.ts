import { describe as describeMessage, maskPan } from './describe';

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
    expect(maskPan('123456789012')).toBe('************');
  });
});
