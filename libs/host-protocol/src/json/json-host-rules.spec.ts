import { JSON_HOST_FORMATS, JsonHostFormat } from '@app/contracts';
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HostOperation, HostProtocolError, JsonDialect } from '../dialect';
import { dialectLookup, jsonSpecsFrom, reversalAcknowledgementOf } from '../dialect-for';
import { authorizeRequest, followUpRequest, original, target, wireContext } from '../testing/factories';
import { EZ_WALLET_REASONS } from './ez-wallet';
import { BUILT_IN_JSON_SPECS, compileJsonHostSpec, JsonHostRules, loadJsonHostSpecFile } from './json-host-rules';

/**
 * A JSON answer to a financial request in each format's own shape, as a host writes it: `word` in
 * the format's status field, `code` where the format carries its code (EZ_WALLET: the reason word
 * that maps to it), and a partial approval's amount (minor units, currency 504 / MAD) where the
 * format puts it.
 */
function answerIn(format: JsonHostFormat, word: string, code: string, approvedMinor: number): Record<string, unknown> {
  switch (format) {
    case 'MPGS_AP':
      return {
        result: word,
        response: { gatewayCode: 'DECLINED', acquirerCode: code },
        transaction: { id: 't', amount: (approvedMinor / 100).toFixed(2), currency: 'MAD', receipt: '612345678901', authorizationCode: 'AB1234' },
      };
    case 'POMELO_JSON':
      return { transaction_id: 't', status: word, status_detail: 'X', response_code: code, message: 'm', approved_amount: approvedMinor, currency: 'MAD' };
    case 'EZ_AIO':
      return { txnRef: 't', respCode: code, respMessage: 'm', txnStatus: word, currencyCode: '504', approvedAmount: (approvedMinor / 100).toFixed(2) };
    case 'EZ_WALLET': {
      const reason = Object.entries(EZ_WALLET_REASONS).find(([, mapped]) => mapped === code)?.[0];
      return { id: 't', state: word, ...(reason !== undefined ? { reason } : {}), approvedAmount: { value: approvedMinor, currency: '504' } };
    }
  }
}

/** The codes an answer can carry in each format (EZ_WALLET only those its reason words map to). */
const CODES: Record<JsonHostFormat, fc.Arbitrary<string>> = {
  MPGS_AP: fc.stringMatching(/^[0-9A-Z]{2}$/),
  POMELO_JSON: fc.stringMatching(/^[0-9A-Z]{2}$/),
  EZ_AIO: fc.stringMatching(/^[0-9A-Z]{2}$/),
  EZ_WALLET: fc.constantFrom(...new Set(Object.values(EZ_WALLET_REASONS))),
};

// ERROR is MPGS_AP's error shape (a refusal read as 30), not a status word of its spec file.
const WORD = fc.stringMatching(/^[A-Z][A-Z_]{2,11}$/).filter((word) => word !== 'ERROR');
/** Rules an operator could write: three disjoint lists of words, and codes drawn from what the format can carry. */
function rulesFor(format: JsonHostFormat): fc.Arbitrary<JsonHostRules> {
  return fc
    .tuple(
      fc.uniqueArray(WORD, { minLength: 3, maxLength: 7 }),
      fc.integer({ min: 1, max: 2 }),
      fc.uniqueArray(CODES[format], { maxLength: 3 }),
      fc.uniqueArray(CODES[format], { maxLength: 3 }),
      fc.option(CODES[format], { nil: null }),
    )
    .map(([words, split, unknownCodes, acknowledging, partial]) => {
      const unknownOutcomeCodes = unknownCodes.filter((code) => !acknowledging.includes(code) && code !== partial);
      return {
        approvedStatuses: words.slice(0, split),
        declinedStatuses: words.slice(split, split + 1),
        unknownOutcomeStatuses: words.slice(split + 1),
        unknownOutcomeCodes,
        partialApprovalCode: partial,
        reversalAcknowledgedCodes: acknowledging,
      };
    });
}

const FINANCIAL: readonly HostOperation[] = ['authorize', 'capture', 'refund', 'void', 'reverse'];
const MONEY_MOVING: readonly HostOperation[] = ['authorize', 'capture', 'refund', 'void'];

function requestOf(operation: HostOperation, format: JsonHostFormat) {
  const terminal = target({ hostMessageFormat: format });
  if (operation === 'authorize') return authorizeRequest({ target: terminal, minor: '10000' });
  const kind = operation === 'capture' ? 'PREAUTH' : 'SALE';
  return followUpRequest(terminal, original({ mti: kind === 'PREAUTH' ? '0100' : '0200', context: wireContext() }, undefined, kind), '10000');
}

describe('JSON formats: answers read by the spec file (JsonHostRules)', () => {
  it('should ship a spec file per format with the documented defaults', () => {
    const expected: Record<JsonHostFormat, [string[], string[], string[]]> = {
      MPGS_AP: [['SUCCESS'], ['FAILURE'], ['PENDING', 'UNKNOWN']],
      POMELO_JSON: [['APPROVED'], ['REJECTED'], ['ERROR']],
      EZ_AIO: [['APPROVED'], ['DECLINED'], ['FAILED']],
      EZ_WALLET: [['SUCCEEDED'], ['DECLINED'], ['FAILED']],
    };
    for (const format of JSON_HOST_FORMATS) {
      const [approvedStatuses, declinedStatuses, unknownOutcomeStatuses] = expected[format];
      expect(BUILT_IN_JSON_SPECS[format]).toMatchObject({
        name: format,
        host: { approvedStatuses, declinedStatuses, unknownOutcomeStatuses, unknownOutcomeCodes: [], partialApprovalCode: '10', reversalAcknowledgedCodes: ['94'] },
      });
    }
  });

  it.each(JSON_HOST_FORMATS)('%s: should read every answer as its spec file says, whatever the file names', (format) => {
    fc.assert(
      fc.property(
        rulesFor(format),
        fc.constantFrom(...FINANCIAL),
        fc.nat(),
        CODES[format],
        fc.constantFrom(200, 201, 202, 400, 404, 409, 422),
        fc.integer({ min: 1, max: 9999 }),
        (rules, operation, pick, code, status, approvedMinor) => {
          const words = [...rules.approvedStatuses, ...rules.declinedStatuses, ...rules.unknownOutcomeStatuses];
          const word = words[pick % words.length];
          const dialect = dialectLookup({}, { [format]: rules })(format) as JsonDialect;
          dialect.buildHttpRequest(operation, requestOf(operation, format), wireContext());
          const read = () => dialect.parseHttpResponse(operation, status, answerIn(format, word, code, approvedMinor));

          const approvedWord = rules.approvedStatuses.includes(word);
          const declined = rules.declinedStatuses.includes(word) && !rules.unknownOutcomeCodes.includes(code);
          const unknown = !approvedWord && !declined;
          if (unknown && MONEY_MOVING.includes(operation) && status < 400) {
            expect(read).toThrow(HostProtocolError);
            return;
          }
          const answer = read();
          // EZ_WALLET carries no code: an approving state is 00, or 10 with the reason PARTIALLY_APPROVED.
          expect(answer.hostRespCode).toBe(format === 'EZ_WALLET' && approvedWord && code !== '10' ? '00' : code);
          const acknowledges = operation === 'reverse' && declined && rules.reversalAcknowledgedCodes.includes(code);
          expect(answer.approved).toBe(approvedWord || acknowledges);
          const partial = approvedWord && ['authorize', 'capture', 'refund'].includes(operation) && answer.hostRespCode === rules.partialApprovalCode;
          expect(answer.approvedAmount).toEqual(partial ? { minor: String(approvedMinor), currency: '504' } : undefined);
        },
      ),
    );
  });

  it.each(JSON_HOST_FORMATS)('%s: should refuse a status word its spec file does not name, as an unreadable answer', (format) => {
    fc.assert(
      fc.property(WORD, fc.constantFrom(...FINANCIAL), (word, operation) => {
        const { host } = BUILT_IN_JSON_SPECS[format];
        fc.pre(![...host.approvedStatuses, ...host.declinedStatuses, ...host.unknownOutcomeStatuses].includes(word));
        expect(() => (dialectLookup()(format) as JsonDialect).parseHttpResponse(operation, 200, answerIn(format, word, '00', 1))).toThrow(HostProtocolError);
      }),
    );
  });

  it.each(JSON_HOST_FORMATS)('%s: should take a partial approval without its amount as an approval of an unnamed amount (what was charged is unknown)', (format) => {
    const { host } = BUILT_IN_JSON_SPECS[format];
    const answer = answerIn(format, host.approvedStatuses[0], '10', 1);
    if (format === 'EZ_WALLET') answer.reason = 'PARTIALLY_APPROVED';
    for (const key of ['transaction', 'approved_amount', 'approvedAmount']) delete answer[key];
    const read = (dialectLookup()(format) as JsonDialect).parseHttpResponse('authorize', 200, answer);
    expect(read).toMatchObject({ approved: true, approvedAmountUnnamed: true });
    expect(read.approvedAmount).toBeUndefined();
  });

  it('should say in words what acknowledges a reversal, for the reversal worker to log', () => {
    expect(reversalAcknowledgementOf(dialectLookup()('MPGS_AP'))).toBe('MPGS_AP acknowledges a reversal with SUCCESS, or FAILURE with 94 while no earlier attempt was refused');
    expect(reversalAcknowledgementOf(dialectLookup()('ISO8583'))).toBe('ISO8583 acknowledges a reversal with 00, or 94 while no earlier attempt was refused');
  });
});

describe('JSON spec files (HOST_SPEC_<FORMAT>_FILE)', () => {
  let directory: string;
  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'json-spec-'));
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  const file = (name: string, content: unknown) => {
    const path = join(directory, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };

  it('should take the built-in values for the keys a file leaves out', () => {
    const path = file('pomelo.json', { name: 'POMELO_JSON', host: { reversalAcknowledgedCodes: ['94', '25'] } });

    const specs = jsonSpecsFrom({ HOST_SPEC_POMELO_JSON_FILE: path });

    expect(specs.POMELO_JSON).toEqual({ ...BUILT_IN_JSON_SPECS.POMELO_JSON.host, reversalAcknowledgedCodes: ['94', '25'] });
    expect(specs.MPGS_AP).toBeUndefined();
  });

  it.each([
    [{ name: 'EZ_AIO', host: { approvedStatus: ['APPROVED'] } }, /unknown key "approvedStatus"/],
    [{ name: 'EZ_AIO', extra: 1 }, /unknown key "extra"/],
    [{ name: 'EZ_AIO', host: { declinedStatuses: ['APPROVED'] } }, /APPROVED is in more than one list/],
    [{ name: 'EZ_AIO', host: { approvedStatuses: [] } }, /approvedStatuses must be a non-empty list/],
    [{ name: 'EZ_AIO', host: { reversalAcknowledgedCodes: ['9'] } }, /reversalAcknowledgedCodes must be a list of 2-character response codes/],
    [{ name: 'EZ_AIO', host: { unknownOutcomeCodes: ['94'] } }, /94 cannot both acknowledge a reversal and leave the outcome unknown/],
    [{ name: 'EZ_AIO', host: { partialApprovalCode: 10 } }, /partialApprovalCode must be null or a 2-character response code/],
    [{ name: 'EZ_AIO', host: { unknownOutcomeCodes: ['10'] } }, /partialApprovalCode cannot be one of the unknownOutcomeCodes/],
    [{ name: 'ISO8583' }, /name must be one of MPGS_AP, POMELO_JSON, EZ_AIO, EZ_WALLET/],
  ])('should refuse %j', (content, message) => {
    expect(() => compileJsonHostSpec(content)).toThrow(message);
  });

  it('should refuse, naming the variable, a file that is not there, not JSON, or another format’s', () => {
    expect(() => jsonSpecsFrom({ HOST_SPEC_EZ_AIO_FILE: join(directory, 'missing.json') })).toThrow(/^HOST_SPEC_EZ_AIO_FILE: EZ_AIO: spec file .*missing\.json/);
    expect(() => jsonSpecsFrom({ HOST_SPEC_EZ_AIO_FILE: file('broken.json', '{') })).toThrow(/^HOST_SPEC_EZ_AIO_FILE: /);
    expect(() => loadJsonHostSpecFile('EZ_AIO', file('wallet.json', { name: 'EZ_WALLET' }))).toThrow(/its name is EZ_WALLET, not EZ_AIO/);
  });
});
