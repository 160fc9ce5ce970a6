import { DomainError, StrictValidationPipe } from '@app/common';
import { CONTRACT_TRANSFORM_OPTIONS, CONTRACT_VALIDATOR_OPTIONS, describeValidationErrors } from '@app/contracts';
import { boundaryValues, Json, mutate, mutation, sweep } from '@app/testing/decode-equivalence';
import { ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import * as classValidator from 'class-validator';
import fc from 'fast-check';
import { decodeSaleRequest, SaleAmountDto, SaleRequestDto } from './sale-request.dto';

/**
 * The sale body decoded by hand against class-transformer + class-validator as the project's pipe
 * runs them (Nest's ValidationPipe under StrictValidationPipe's options): generated bodies, and
 * each with one field changed anywhere, must never be accepted where the decorators refuse, and
 * when accepted must be the instance the decorators answer (the same classes and fields, in the
 * same order). The bodies an SDK sends must all be accepted (else the hand-written path is useless).
 */

const BODY: ArgumentMetadata = { type: 'body', metatype: SaleRequestDto, data: undefined };

/** The pipe without the hand-written decoder: what StrictValidationPipe ran for every sale before. */
const decorators = new ValidationPipe({
  ...CONTRACT_VALIDATOR_OPTIONS,
  transform: true,
  transformOptions: CONTRACT_TRANSFORM_OPTIONS,
  exceptionFactory: (errors) => DomainError.validation(describeValidationErrors(errors)),
});
const pipe = new StrictValidationPipe();

async function byDecorators(body: unknown): Promise<{ ok: true; value: unknown } | { ok: false }> {
  try {
    return { ok: true, value: await decorators.transform(JSON.parse(JSON.stringify(body)), BODY) };
  } catch {
    return { ok: false };
  }
}

function expectSameInstance(actual: unknown, expected: unknown): void {
  expect(actual).toStrictEqual(expected);
  expect(Object.keys(actual as object)).toEqual(Object.keys(expected as object));
  expect(actual).toBeInstanceOf(SaleRequestDto);
  expect((actual as SaleRequestDto).amount).toBeInstanceOf(SaleAmountDto);
}

/**
 * The hand-written decoder accepts nothing the decorators refuse and answers what they answer; the
 * pipe (which refuses an unknown field, `constructor` included, before the decorators run) accepts
 * nothing they refuse either, and answers what they answer.
 */
async function expectAgreement(body: Json, mustAccept = false): Promise<void> {
  const expected = await byDecorators(body);
  const decoded = typeof body === 'object' && body !== null && !Array.isArray(body) ? decodeSaleRequest(JSON.parse(JSON.stringify(body)) as object) : undefined;
  if (mustAccept) expect(decoded).toBeDefined();
  if (decoded !== undefined) {
    expect(expected).toMatchObject({ ok: true });
    if (expected.ok) expectSameInstance(decoded, expected.value);
  }
  const piped = await pipe.transform(JSON.parse(JSON.stringify(body)), BODY).then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => {
      expect(error).toBeInstanceOf(DomainError);
      return { ok: false as const };
    },
  );
  if (!expected.ok) expect(piped.ok).toBe(false);
  else if (piped.ok) expectSameInstance(piped.value, expected.value);
}

const EMV = '5A0847617390010101195F24033012314F07A00000000310109F2608A1B2C3D4E5F601029F2701809F3602000195050000000000';

const optionalText = (text: fc.Arbitrary<string>) => fc.option(text, { nil: null });

/** Bodies as an SDK sends them: every field valid, the optional ones present, null or absent. */
const validBody: fc.Arbitrary<Json> = fc
  .record(
    {
      profileId: fc.oneof(fc.constant('prof_Xq3vJ0a9T1mB7cR2sD5eWg'), fc.string({ minLength: 1, maxLength: 80 })),
      tranType: fc.constantFrom('SALE', 'AUTH'),
      amount: fc.record({ value: fc.stringMatching(/^(0|[1-9][0-9]{0,11})(\.[0-9]{1,3})?$/), currency: fc.constantFrom('MYR', 'USD', 'JPY', 'KWD', 'SGD') }),
      emvData: fc.oneof(fc.constant(EMV), fc.stringMatching(/^([0-9A-Fa-f]{2}){4,40}$/)),
      posReference: optionalText(fc.stringMatching(/^[\x20-\x7E]{1,64}$/)),
      description: optionalText(fc.oneof(fc.constant('Kopi and kaya toast'), fc.string({ maxLength: 256 }).filter((text) => !/[\u0000-\u001F\u007F]/.test(text)))),
      callbackUrl: optionalText(fc.constantFrom('https://merchant.example.com/softpos/callback', 'http://10.0.0.1:8080/cb?x=1', 'https://例え.jp/cb')),
    },
    { requiredKeys: ['profileId', 'tranType', 'amount', 'emvData'] },
  )
  .map((body) => body as Json);

const FULL: Json = {
  profileId: 'prof_Xq3vJ0a9T1mB7cR2sD5eWg',
  tranType: 'SALE',
  amount: { value: '12.50', currency: 'MYR' },
  emvData: EMV,
  posReference: 'ORDER-42',
  description: 'Kopi and kaya toast',
  callbackUrl: 'https://merchant.example.com/softpos/callback',
};

const BOUNDARY_VALUES = boundaryValues(
  [64, 80, 256, 2048],
  [
    'SALE',
    'AUTH',
    'sale',
    'REFUND',
    'MYR',
    'myr',
    'XAU',
    '12.50',
    '12.5055',
    '0',
    '00.1',
    '1.',
    'ABCD',
    'ABC',
    'abcd12',
    'ftp://example.com/',
    'https://user:pw@example.com/',
    'https://',
    'https://example.com/\u0000',
    'tab\there',
    'é',
    '\u007F',
    { value: '1.00', currency: 'MYR' },
  ],
);

describe('the sale body decoded by hand', () => {
  it('should accept every body an SDK sends, as the instance class-validator answers', async () => {
    await fc.assert(fc.asyncProperty(validBody, (body) => expectAgreement(body, true)), { numRuns: 300 });
  });

  it('should accept nothing class-validator refuses, at every boundary value at every path, each path deleted and each value wrapped', async () => {
    const checks: Json[] = [];
    sweep(FULL, BOUNDARY_VALUES, (body) => checks.push(body));
    for (const body of checks) await expectAgreement(body);
  });

  it('should accept nothing class-validator refuses after one change anywhere in a body', async () => {
    await fc.assert(
      fc.asyncProperty(validBody, mutation(['profileId', 'amount', 'value', 'currency', 'posReference']), (body, change) => expectAgreement(mutate(body, change))),
      { numRuns: 1000 },
    );
  });

  it('should answer a valid sale body without class-validator, and leave a refused one to it (its words in the 400)', async () => {
    const validate = jest.spyOn(classValidator, 'validate');
    try {
      await pipe.transform(JSON.parse(JSON.stringify(FULL)), BODY);
      expect(validate).not.toHaveBeenCalled();
      await expect(pipe.transform({ ...(FULL as object), tranType: 'REFUND' }, BODY)).rejects.toThrow('tranType must be one of the following values: SALE, AUTH');
      expect(validate).toHaveBeenCalled();
    } finally {
      validate.mockRestore();
    }
  });
});
