import { unsafeShapeOf } from '@app/contracts';
import fc from 'fast-check';
import { parseEmbeddedJson } from '../validation/validators';
import { checkRequestText, MAX_BODY_VALUES, parseGuardedJson, parseJsonBody } from './json-body';

/** Text where a naive comma count would go wrong: commas, quotes and backslashes inside strings. */
const trickyText = fc.string({ unit: fc.constantFrom(',', '"', '\\', '\\"', 'a', 'é', '\u2028', ' '), maxLength: 40 });

/** What the reader answers when it parses first and only then counts (the rule the early count must keep). */
function parsedThenCounted(text: string): { value: unknown } | { unsafe: string } {
  const value: unknown = JSON.parse(text);
  const unsafe = unsafeShapeOf(value, { maxValues: MAX_BODY_VALUES });
  return unsafe === undefined ? { value } : { unsafe };
}

describe('parseGuardedJson: values counted before parsing', () => {
  it('should answer every JSON text as parsing then counting does, strings full of commas included', () => {
    const tricky = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, trickyText, fc.integer(), fc.array(tie('value'), { maxLength: 8 }), fc.dictionary(trickyText, tie('value'), { maxKeys: 6 })),
    })).value;
    fc.assert(
      fc.property(tricky, (value) => {
        const text = JSON.stringify(value);
        expect(parseGuardedJson(text)).toEqual(parsedThenCounted(text));
      }),
      { numRuns: 300 },
    );
  });

  it(`should refuse exactly the arrays and objects of more than ${MAX_BODY_VALUES} values, however many commas their strings hold`, () => {
    fc.assert(
      fc.property(
        fc.integer({ min: MAX_BODY_VALUES - 4, max: MAX_BODY_VALUES + 4 }),
        fc.boolean(),
        fc.nat({ max: 30_000 }),
        trickyText,
        (count, asObject, commasInString, text) => {
          // The container itself is one value: `count` children make count + 1.
          const children = Array.from({ length: count - 1 }, (_, i) => (i % 2 === 0 ? i : text));
          children.push(','.repeat(commasInString));
          const value = asObject ? Object.fromEntries(children.map((child, i) => [`k${i},"`, child])) : children;
          const answer = parseGuardedJson(JSON.stringify(value));
          if (count + 1 > MAX_BODY_VALUES) expect(answer).toEqual({ unsafe: `payload holds more than ${MAX_BODY_VALUES} values` });
          else expect(answer).toEqual({ value });
        },
      ),
      { numRuns: 40 },
    );
  });

  it('should answer nesting of any depth as parsing then counting does, brackets inside strings not counted', () => {
    const bracketText = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', ',', '"', '\\', '\\"', 'a'), maxLength: 12 });
    // A chain of arrays and objects `depth` deep around a string that may hold brackets and quotes.
    const nested = fc
      .tuple(fc.array(fc.tuple(fc.boolean(), bracketText), { minLength: 1, maxLength: 45 }), bracketText)
      .map(([levels, leaf]) => levels.reduceRight<unknown>((inner, [asObject, key]) => (asObject ? { [key]: inner } : [inner, key]), leaf));
    fc.assert(
      fc.property(nested, (value) => {
        const text = JSON.stringify(value);
        expect(parseGuardedJson(text)).toEqual(parsedThenCounted(text));
      }),
      { numRuns: 300 },
    );
  });

  it('should refuse text nesting deeper than 32 levels without parsing it, however deep', () => {
    const parse = jest.spyOn(JSON, 'parse');
    try {
      fc.assert(
        fc.property(fc.integer({ min: 33, max: 450_000 }), fc.constantFrom('[', '{"a":', '[{"k":'), (depth, opener) => {
          parse.mockClear();
          const text = opener.repeat(Math.ceil(depth / (opener === '[{"k":' ? 2 : 1)));
          expect(parseGuardedJson(text)).toEqual({ unsafe: 'payload nests deeper than 32 levels' });
          expect(parse).not.toHaveBeenCalled();
        }),
        { numRuns: 30 },
      );
    } finally {
      parse.mockRestore();
    }
  });

  it('should accept a string of any number of commas, and still say why broken JSON is broken', () => {
    expect(parseGuardedJson(JSON.stringify({ a: ','.repeat(50_000) }))).toEqual({ value: { a: ','.repeat(50_000) } });
    expect(parseGuardedJson('{"a": "unterminated')).toEqual({ invalid: ' (at position 19)' });
  });

  it('should never quote the text of broken JSON, only where it broke', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z]{12}$/), fc.constantFrom('', '{', '{"a":', '[1,', '{"a":1}}', '{"a":"'), fc.constantFrom('', '}', ']', ','), (mark, before, after) => {
        const message = (() => {
          try {
            parseJsonBody(`${before}${mark}${after}`);
            return 'parsed';
          } catch (error) {
            return (error as Error).message;
          }
        })();
        expect(message).toMatch(/^the request body is not valid JSON( \(at position \d+\)| \(it ends too early\))?$/);
      }),
    );
  });
});

describe('parseGuardedJson: keys every object has', () => {
  it('should refuse a body with a key naming a member of every object (constructor, toString, …) at any depth, whatever its value', () => {
    const memberKey = fc.constantFrom('constructor', ...Object.getOwnPropertyNames(Object.prototype).filter((key) => key !== '__proto__'));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 }), memberKey, fc.jsonValue({ maxDepth: 2 }), (depth, key, value) => {
        let text = `{${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}}`;
        for (let level = 0; level < depth; level++) text = `{"n":${text}}`;
        const answer = parseGuardedJson(text);
        expect('value' in answer).toBe(false);
        if ('unsafe' in answer) expect(answer.unsafe).toMatch(new RegExp(`^(n\\.)*${key} is not an accepted field$`));
      }),
    );
  });
});

// r14c item 7: valid JSON holding __proto__ was told "the request body is not valid JSON".
describe('parseGuardedJson: prototype keys are said as such', () => {
  const holdingPrototypeKey = fc
    .tuple(fc.integer({ min: 0, max: 8 }), fc.constantFrom('{"__proto__":VALUE}', '{"constructor":{"prototype":VALUE}}', '{"a":1,"__proto__":VALUE}'), fc.jsonValue({ maxDepth: 2 }))
    .map(([depth, shape, value]) => {
      // A function, not a string: a `$'` or `$&` in the value is text, not a replacement pattern.
      let text = shape.replace('VALUE', () => JSON.stringify(value) ?? 'null');
      for (let level = 0; level < depth; level++) text = level % 2 ? `[${text}]` : `{"n":${text}}`;
      return text;
    });

  it('should refuse a body holding a __proto__ key or a constructor.prototype at any depth as such, never as invalid JSON, in the body and in a JSON string field', () => {
    fc.assert(
      fc.property(holdingPrototypeKey, (text) => {
        expect(() => parseJsonBody(text)).toThrow(
          'the request body holds a __proto__ key or a constructor.prototype, which are refused (they would reach object prototypes)',
        );
        expect(parseEmbeddedJson(text)).toEqual({
          problem: 'holds JSON that cannot be taken: the value holds a __proto__ key or a constructor.prototype, which are refused (they would reach object prototypes)',
        });
      }),
    );
  });

  it('should name the path, not a parameter "*", when a URL no route took holds text PostgreSQL cannot take', () => {
    expect(() => checkRequestText({ params: { '*': 'nope\u0000' }, query: {} })).toThrow('the path must not contain a NUL character');
    expect(() => checkRequestText({ params: { id: 'x\u0000' }, query: {} })).toThrow('id must not contain a NUL character');
  });
});
