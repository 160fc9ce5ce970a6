import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pack, unpack } from './codec';
import { Iso8583ErrorCode } from './errors';
import { framerFor } from './framing';
import { Iso8583Message } from './message';
import { CASHPLUS_8583, ISO8583, loadSpecFile, MASARAT_8583, presetsWithFiles, PRESETS, S2M_8583 } from './presets';
import { compileSpec, MessageSpec } from './spec';
import { ascii, codecError, fieldJson, specJson } from './test-factories';

const ICC = '9F0206000000001000' + '5F2A020504' + '82021980'; // amount 10.00, currency MAD, AIP: 18 bytes

function wire(spec: MessageSpec, message: Iso8583Message, tpdu?: Buffer): string {
  return framerFor(spec).frame(pack(spec, message), tpdu).toString('hex').toUpperCase();
}

function read(spec: MessageSpec, hex: string): { tpdu: Buffer | null; message: Iso8583Message } {
  const [frame] = framerFor(spec).deframer().push(Buffer.from(hex, 'hex'));
  return { tpdu: frame.tpdu, message: unpack(spec, frame.payload) };
}

describe('preset field definitions (ISO 8583:1987)', () => {
  const expected: Record<number, [string, string, number]> = {
    2: ['n', 'LL', 19],
    3: ['n', 'fixed', 6],
    4: ['n', 'fixed', 12],
    7: ['n', 'fixed', 10],
    11: ['n', 'fixed', 6],
    12: ['n', 'fixed', 6],
    13: ['n', 'fixed', 4],
    14: ['n', 'fixed', 4],
    22: ['n', 'fixed', 3],
    23: ['n', 'fixed', 3],
    24: ['n', 'fixed', 3],
    25: ['n', 'fixed', 2],
    35: ['z', 'LL', 37],
    37: ['an', 'fixed', 12],
    38: ['an', 'fixed', 6],
    39: ['an', 'fixed', 2],
    41: ['ans', 'fixed', 8],
    42: ['ans', 'fixed', 15],
    48: ['ans', 'LLL', 999],
    49: ['n', 'fixed', 3],
    52: ['b', 'fixed', 8],
    53: ['n', 'fixed', 16],
    60: ['ans', 'LLL', 999],
    61: ['ans', 'LLL', 999],
    62: ['ans', 'LLL', 999],
    63: ['ans', 'LLL', 999],
    64: ['b', 'fixed', 8],
    70: ['n', 'fixed', 3],
    74: ['n', 'fixed', 10],
    75: ['n', 'fixed', 10],
    76: ['n', 'fixed', 10],
    77: ['n', 'fixed', 10],
    86: ['n', 'fixed', 16],
    87: ['n', 'fixed', 16],
    88: ['n', 'fixed', 16],
    89: ['n', 'fixed', 16],
    90: ['n', 'fixed', 42],
    95: ['an', 'fixed', 42],
    96: ['b', 'fixed', 8],
    97: ['ans', 'fixed', 17],
    128: ['b', 'fixed', 8],
  };

  it.each(Object.keys(PRESETS))('should define the 1987 data elements in %s', (name) => {
    const spec = PRESETS[name];
    for (const [number, [type, lengthType, length]] of Object.entries(expected)) {
      const field = spec.fields.get(Number(number));
      expect({ number, type: field?.spec.type, lengthType: field?.spec.lengthType, length: field?.spec.length }).toEqual({ number, type, lengthType, length });
    }
    expect(spec.fields.get(55)).toMatchObject({ tlv: true, spec: { type: 'b', lengthType: 'LLL' } });
  });

  it('should give each format its own MTI, bitmap and header', () => {
    const shapes = Object.values(PRESETS).map((spec) => `${spec.mtiEncoding.name}/${spec.bitmapEncoding}/${spec.header.length}/${spec.header.tpdu}`);
    expect(shapes).toEqual(['ascii/binary/binary2/false', 'bcd/binary/binary2/true', 'ascii/hex/ascii4/false', 'bcd/binary/bcd2/false']);
  });

  it('should name each preset by its host format', () => {
    expect(Object.entries(PRESETS).map(([key, spec]) => [key, spec.name])).toEqual([
      ['ISO8583', 'ISO8583'],
      ['S2M_8583', 'S2M_8583'],
      ['MASARAT_8583', 'MASARAT_8583'],
      ['CASHPLUS_8583', 'CASHPLUS_8583'],
    ]);
  });
});

describe('S2M_8583 golden vector', () => {
  const sale: Iso8583Message = {
    mti: '0200',
    fields: {
      2: '4761739001010119',
      3: '000000',
      4: '000000001000',
      11: '000001',
      22: '051',
      35: '4761739001010119=2512101123',
      41: 'TERM0001',
      49: '504',
      55: Buffer.from(ICC, 'hex'),
    },
  };
  const tpdu = Buffer.from('6000030000', 'hex');
  const hex = [
    '0053', // binary length 83 = TPDU 5 + message 78
    '6000030000', // TPDU: 60, destination NII 0003, source NII 0000
    '0200', // MTI in BCD
    '7020040020808200', // bitmap: 2,3,4 (70); 11 (20); 22 (04); 35 (20); 41 (80); 49 + 55 (80 | 02)
    '16', // field 2 LL in BCD: 16 digits
    '4761739001010119', // PAN, 8 bytes of BCD
    '000000', // field 3 n6 in 3 bytes
    '000000001000', // field 4 n12 in 6 bytes
    '000001', // field 11 n6
    '0051', // field 22 n3, right-justified: leading 0 nibble
    '27', // field 35 LL in BCD: 27 characters
    '4761739001010119' + 'D2512101123F', // track 2: separator nibble D, odd count padded with a trailing F
    ascii('TERM0001'), // field 41 ans8 stays ASCII
    '0504', // field 49 n3
    '0018', // field 55 LLL in BCD (2 bytes): 18 bytes
    ICC,
  ].join('');

  it('should frame and pack an 0200 with its TPDU byte for byte', () => {
    expect(wire(S2M_8583, sale, tpdu)).toBe(hex.toUpperCase());
  });

  it('should read the hand-built frame back', () => {
    expect(read(S2M_8583, hex)).toEqual({ tpdu, message: sale });
  });
});

describe('MASARAT_8583 golden vector', () => {
  const sale: Iso8583Message = {
    mti: '0200',
    fields: {
      2: '4761739001010119',
      3: '000000',
      4: '000000001000',
      11: '000001',
      41: 'TERM0001',
      49: '504',
      52: Buffer.from('0123456789ABCDEF', 'hex'),
      55: Buffer.from(ICC, 'hex'),
    },
  };
  // Every byte printable, so the vector is written as text.
  const text = [
    '0128', // ASCII length: 128 bytes follow
    '0200', // MTI
    '7020000000809200', // bitmap as ASCII hex: 2,3,4 (70); 11 (20); 41 (80); 49 + 52 + 55 (80 | 10 | 02)
    '16' + '4761739001010119', // field 2 LL + PAN
    '000000', // field 3
    '000000001000', // field 4
    '000001', // field 11
    'TERM0001', // field 41
    '504', // field 49
    '0123456789ABCDEF', // field 52 PIN block, 8 bytes as 16 hex characters
    '036' + ICC, // field 55: LLL counts the 36 hex characters of its 18 bytes
  ].join('');

  it('should frame and pack an 0200 as printable text', () => {
    expect(Buffer.from(wire(MASARAT_8583, sale), 'hex').toString('latin1')).toBe(text);
  });

  it('should read the hand-built text back', () => {
    expect(read(MASARAT_8583, Buffer.from(text, 'latin1').toString('hex'))).toEqual({ tpdu: null, message: sale });
  });
});

describe('CASHPLUS_8583 golden vector', () => {
  const sale: Iso8583Message = {
    mti: '0200',
    fields: {
      3: '000000',
      4: '000000001000',
      11: '000001',
      35: '4761739001010119=2512101123',
      41: 'TERM0001',
      55: Buffer.from(ICC, 'hex'),
      128: Buffer.from('1122334455667788', 'hex'),
    },
  };
  const hex = [
    '0107', // BCD length: 107 bytes follow
    '0200', // MTI in BCD
    'B020000020800200', // primary bitmap: 1 (secondary present) + 3,4 (80 | 20 | 10); 11 (20); 35 (20); 41 (80); 55 (02)
    '0000000000000001', // secondary bitmap: 128 is its last bit
    ascii('000000'), // field 3, ASCII numerics
    ascii('000000001000'), // field 4
    ascii('000001'), // field 11
    ascii('27') + ascii('4761739001010119=2512101123'), // field 35: ASCII LL, ASCII track 2
    ascii('TERM0001'), // field 41
    '0012' + ICC, // field 55: LLL as a 2-byte binary number (18), then the bytes
    '1122334455667788', // field 128 MAC
  ].join('');

  it('should frame and pack an 0200 with a secondary bitmap byte for byte', () => {
    expect(wire(CASHPLUS_8583, sale)).toBe(hex.toUpperCase());
  });

  it('should read the hand-built frame back', () => {
    expect(read(CASHPLUS_8583, hex)).toEqual({ tpdu: null, message: sale });
  });
});

describe('each preset on the same sale', () => {
  it('should put a different frame on the wire for each format', () => {
    const sale = { mti: '0200', fields: { 2: '4761739001010119', 4: '000000001000', 55: Buffer.from(ICC, 'hex') } };
    const frames = Object.values(PRESETS).map((spec) => wire(spec, sale, spec.header.tpdu ? Buffer.from('6000030000', 'hex') : undefined));
    expect(new Set(frames).size).toBe(4);
    expect(ISO8583.header).toEqual({ length: 'binary2', tpdu: false });
  });
});

describe('spec files', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'iso8583-spec-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  const ownS2m = (): Record<string, unknown> => {
    const json = JSON.parse(readFileSync(join(__dirname, '../specs/s2m8583.json'), 'utf8')) as Record<string, unknown>;
    return { ...json, header: { length: 'bcd2', tpdu: true } };
  };

  it('should load an operator file in place of a built-in variant', () => {
    const path = join(folder, 's2m.json');
    writeFileSync(path, JSON.stringify(ownS2m()));
    const presets = presetsWithFiles({ S2M_8583: path });
    expect(presets.S2M_8583.header).toEqual({ length: 'bcd2', tpdu: true });
    expect(presets.ISO8583).toBe(ISO8583);
    expect(PRESETS.S2M_8583.header.length).toBe('binary2');
  });

  it('should refuse a file that names another format', () => {
    const path = join(folder, 'wrong.json');
    writeFileSync(path, JSON.stringify(ownS2m()));
    expect(codecError(() => presetsWithFiles({ MASARAT_8583: path })).message).toContain('its name is S2M_8583, not MASARAT_8583');
  });

  it('should name the file it cannot parse', () => {
    const path = join(folder, 'broken.json');
    writeFileSync(path, '{ "name": ');
    expect(codecError(() => loadSpecFile(path))).toMatchObject({ code: Iso8583ErrorCode.BadSpec, fieldPath: `spec file ${path}` });
  });

  it('should refuse a key the format does not define, so a typo is not a silent default', () => {
    const path = join(folder, 'typo.json');
    writeFileSync(path, JSON.stringify({ ...ownS2m(), fields: { 2: { ...fieldJson({ type: 'n', length: 19, lengthType: 'LL' }), prefixEncodng: 'bcd' } } }));
    expect(codecError(() => loadSpecFile(path))).toMatchObject({ code: Iso8583ErrorCode.BadSpec, fieldPath: 'spec field 2' });
  });

  it.each([
    ['an unknown length header', { length: 'ascii2', tpdu: false }],
    ['a TPDU flag that is not a boolean', { length: 'bcd2', tpdu: 'yes' }],
    ['an unknown header key', { length: 'bcd2', tpdu: false, nii: 3 }],
  ])('should refuse %s', (_label, header) => {
    expect(codecError(() => compileSpec({ ...specJson({ fields: {} }), header }))).toMatchObject({ code: Iso8583ErrorCode.BadSpec, fieldPath: 'spec header' });
  });

  it('should read a spec without header, or with the first slice header, as binary2 without TPDU', () => {
    expect(compileSpec(specJson({ fields: {} })).header).toEqual({ length: 'binary2', tpdu: false });
    expect(compileSpec({ ...specJson({ fields: {} }), header: { type: 'binary-length', size: 2 } }).header).toEqual({ length: 'binary2', tpdu: false });
  });

  it('should refuse prefixCounts hexChars on a field that is not hex', () => {
    expect(
      codecError(() => compileSpec(specJson({ fields: { 55: fieldJson({ type: 'b', length: 499, lengthType: 'LLL', prefixCounts: 'hexChars' }) } }))).fieldPath,
    ).toBe('spec field 55');
  });

  it('should refuse a hexChars field whose length the prefix cannot count', () => {
    expect(
      codecError(() =>
        compileSpec(specJson({ fields: { 55: fieldJson({ type: 'b', length: 500, lengthType: 'LLL', encoding: 'hex', prefixCounts: 'hexChars' }) } })),
      ).message,
    ).toContain('from 1 to 499');
  });
});
