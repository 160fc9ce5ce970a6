import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { DomainError } from '../errors';
import { contractViolation, fieldName, IsIsoCurrency } from '@app/contracts';
import fc from 'fast-check';
import { ArgumentMetadata, ValidationPipe } from '@nestjs/common';
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
    // Nor at depth (fc.jsonValue may nest `{"toString": …}`, which the body reader refuses before the pipe).
    const nestedPrototypeName = new RegExp(`"(${prototypeNames.join('|')})":`);
    const unknown = fc
      .dictionary(
        fc.string({ minLength: 1 }).filter((key) => !['name', 'currency', 'items', ...prototypeNames].includes(key)),
        fc.jsonValue({ maxDepth: 1 }),
        { minKeys: 1, maxKeys: 5 },
      )
      .filter((extra) => !nestedPrototypeName.test(JSON.stringify(extra)));
    await fc.assert(
      fc.asyncProperty(known, unknown, fc.boolean(), async (fields, extra, extraFirst) => {
        const body = extraFirst ? { ...extra, ...fields } : { ...fields, ...extra };
        expect(await messageOf(body)).toBe(contractViolation(Body, body));
      }),
    );
  });

  describe('unknown fields of nested DTOs', () => {
    class Leaf {
      @IsString() code: string;
      @IsOptional() @IsInt() weight?: number;
    }
    class Line {
      @IsInt() emvId: number;
      @IsOptional() @ValidateNested() @Type(() => Leaf) leaf?: Leaf;
      @IsOptional() @ValidateNested({ each: true }) @Type(() => Leaf) leaves?: Leaf[];
    }
    class Order {
      @IsString() name: string;
      @IsOptional() @ValidateNested() @Type(() => Line) main?: Line;
      @IsOptional() @ValidateNested({ each: true }) @Type(() => Line) lines?: Line[];
    }
    const metadata: ArgumentMetadata = { type: 'body', metatype: Order };

    const leaf = fc.record({ code: fc.string({ maxLength: 5 }), weight: fc.integer() }, { requiredKeys: ['code'] });
    const line = fc.record({ emvId: fc.integer(), leaf, leaves: fc.array(leaf, { maxLength: 3 }) }, { requiredKeys: ['emvId'] });
    const order = fc.record({ name: fc.string({ maxLength: 5 }), main: line, lines: fc.array(line, { maxLength: 3 }) }, { requiredKeys: ['name'] });
    const prototypeNames = ['__proto__', 'constructor', ...Object.getOwnPropertyNames(Object.prototype)];
    const strangerKey = fc.string({ minLength: 1, maxLength: 12 }).filter((key) => !['name', 'main', 'lines', 'emvId', 'leaf', 'leaves', 'code', 'weight', ...prototypeNames].includes(key) && !/^\d+$/.test(key));

    // Keys every object has never reach the pipe (the body reader refuses them, json-body.spec.ts).
    const strangerValue = fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.array(fc.integer(), { maxLength: 3 }), fc.dictionary(strangerKey, fc.integer(), { maxKeys: 3 }));

    /** Every object of a valid order with its path as class-validator names it. */
    function objectsOf(body: Record<string, unknown>): Array<[string, Record<string, unknown>]> {
      const found: Array<[string, Record<string, unknown>]> = [['', body]];
      const walk = (value: unknown, path: string) => {
        if (Array.isArray(value)) value.forEach((item, index) => walk(item, `${path}[${index}]`));
        else if (typeof value === 'object' && value !== null) {
          found.push([path, value as Record<string, unknown>]);
          for (const [key, child] of Object.entries(value)) walk(child, `${path}.${key}`);
        }
      };
      for (const [key, child] of Object.entries(body)) walk(child, key);
      return found;
    }

    it('should refuse an unknown key at any depth naming its path, as class-validator would, before anything is transformed', async () => {
      const inner = jest.spyOn(ValidationPipe.prototype, 'transform');
      try {
        await fc.assert(
          fc.asyncProperty(order, strangerKey, fc.nat(), strangerValue, async (valid, key, pick, stranger) => {
            const body = structuredClone(valid) as Record<string, unknown>;
            const objects = objectsOf(body);
            const [path, target] = objects[pick % objects.length];
            target[key] = stranger;
            const expected = `${path === '' ? fieldName(key) : `${path}.${fieldName(key)}`} is not an accepted field`;
            inner.mockClear();

            await expect(new StrictValidationPipe().transform(body, metadata)).rejects.toThrow(expected);
            expect(inner).not.toHaveBeenCalled();
            expect(contractViolation(Order, body)).toBe(expected);
          }),
        );
      } finally {
        inner.mockRestore();
      }
    });

    it('should still take every valid nested body', async () => {
      await fc.assert(
        fc.asyncProperty(order, async (valid) => {
          await expect(new StrictValidationPipe().transform(structuredClone(valid), metadata)).resolves.toBeInstanceOf(Order);
        }),
      );
    });

    it('should refuse 9,990 unknown keys in a nested object without transforming them', async () => {
      const many = Object.fromEntries(Array.from({ length: 9990 }, (_, index) => [`k${index}`, index]));
      const body = { name: 'a', lines: [{ emvId: 1 }, { emvId: 2, leaves: [{ code: 'x', ...many }] }] };
      const started = process.hrtime.bigint();
      await expect(new StrictValidationPipe().transform(body, metadata)).rejects.toThrow('lines[1].leaves[0].k0 is not an accepted field');
      // Generous bound for a loaded CI box; the transformation it avoids takes ~100+ ms.
      expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(50);
    });
  });
});
