import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { DomainError } from '../errors';
import { contractViolation, IsIsoCurrency } from '@app/contracts';
import fc from 'fast-check';
import { StrictValidationPipe } from './validation.pipe';

class Item {
  @IsInt() emvId: number;
}

class Body {
  @IsString() @MaxLength(5) name: string;
  @IsIsoCurrency() currency: string;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Item) items?: Item[];
}

async function messageOf(value: unknown): Promise<string> {
  try {
    await new StrictValidationPipe().transform(value, { type: 'body', metatype: Body });
  } catch (error) {
    if (error instanceof DomainError) return error.message;
    throw error;
  }
  throw new Error('expected a validation error');
}

describe('StrictValidationPipe', () => {
  it('should say a missing field is required', async () => {
    expect(await messageOf({ currency: 'MYR' })).toBe('name is required');
  });

  it('should report a wrong type before a wrong length', async () => {
    expect(await messageOf({ name: 123456, currency: 'MYR' })).toBe('name must be a string');
  });

  it('should name an unknown field', async () => {
    expect(await messageOf({ name: 'a', currency: 'MYR', groupId: 'x' })).toBe('groupId is not an accepted field');
  });

  it('should name the path of a nested field', async () => {
    expect(await messageOf({ name: 'a', currency: 'MYR', items: [{ emvId: 1 }, { emvId: 'x' }] })).toBe('items[1].emvId must be an integer number');
  });

  it('should refuse a bad ISO 4217 code', async () => {
    expect(await messageOf({ name: 'a', currency: 'ABC' })).toContain('currency must be an ISO 4217 currency code');
  });

  it('should refuse a body that is not a JSON object', async () => {
    expect(await messageOf([{ name: 'a' }])).toBe('request body must be a JSON object');
    expect(await messageOf('text')).toBe('request body must be a JSON object');
  });

  it('should not coerce types', async () => {
    expect(await messageOf({ name: 'a', currency: 'MYR', items: [{ emvId: '1' }] })).toBe('items[0].emvId must be an integer number');
  });

  it('should refuse an unknown field before transformation in the words class-validator would use', async () => {
    const known = fc.record({ name: fc.oneof(fc.string(), fc.integer()), currency: fc.constantFrom('MYR', 'xx', 1), items: fc.array(fc.record({ emvId: fc.oneof(fc.integer(), fc.string()) }), { maxLength: 2 }) }, { requiredKeys: [] });
    // Names every object has (`constructor`, `toString`, …) never reach the pipe: the body reader refuses them (json-body.spec.ts).
    const prototypeNames = ['__proto__', 'constructor', ...Object.getOwnPropertyNames(Object.prototype)];
    const unknown = fc.dictionary(
      fc.string({ minLength: 1 }).filter((key) => !['name', 'currency', 'items', ...prototypeNames].includes(key)),
      fc.jsonValue({ maxDepth: 1 }),
      { minKeys: 1, maxKeys: 5 },
    );
    await fc.assert(
      fc.asyncProperty(known, unknown, fc.boolean(), async (fields, extra, extraFirst) => {
        const body = extraFirst ? { ...extra, ...fields } : { ...fields, ...extra };
        expect(await messageOf(body)).toBe(contractViolation(Body, body));
      }),
    );
  });
});
