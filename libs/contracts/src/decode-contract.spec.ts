import fc from 'fast-check';
import { ContractViolationError, decodeContract } from './decode-contract';

/** A contract with no field at all (a body that may only be empty). */
class NoFields {}

describe('decodeContract of a class with no fields', () => {
  // Review r14p: class-validator refuses such a value without naming a property, which the description read as a key: a TypeError (500).
  it('should refuse any object with a field as a contract violation naming its first key, and take {}', () => {
    const key = fc.string({ minLength: 1, maxLength: 16 }).filter((text) => !['__proto__', 'constructor', 'prototype'].includes(text));
    fc.assert(
      fc.property(fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 4 }), (payload) => {
        let thrown: unknown;
        try {
          decodeContract(NoFields, payload);
        } catch (error) {
          thrown = error;
        }
        expect(thrown).toBeInstanceOf(ContractViolationError);
        expect((thrown as ContractViolationError).reason).toMatch(/is not an accepted field$|^payload /);
      }),
      { numRuns: 200 },
    );
    expect(decodeContract(NoFields, {})).toBeInstanceOf(NoFields);
  });
});
