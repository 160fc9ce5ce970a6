import fc from 'fast-check';

/**
 * MIDs and TIDs as a host takes them (field 42: 1 to 15 letters, digits or spaces; field 41: 1 to
 * 8 letters or digits; each with one letter or digit at least) and ones it cannot: too long, empty,
 * spaces only, or with any other character.
 */
const ALNUM = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'];

function valid(maxLength: number, space: boolean): fc.Arbitrary<string> {
  const unit = fc.constantFrom(...ALNUM, ...(space ? [' '] : []));
  // At least one letter or digit: a MID of spaces only is all padding on the wire.
  return fc.tuple(fc.constantFrom(...ALNUM), fc.array(unit, { maxLength: maxLength - 1 }), fc.nat()).map(([first, rest, at]) => {
    const chars = [...rest];
    chars.splice(at % (chars.length + 1), 0, first);
    return chars.join('');
  });
}

function invalid(maxLength: number, space: boolean): fc.Arbitrary<string> {
  const allowed = new RegExp(`^[A-Za-z0-9${space ? ' ' : ''}]$`);
  const foreign = fc.string({ minLength: 1, maxLength: 1, unit: 'grapheme' }).filter((char) => !allowed.test(char));
  return fc.oneof(
    // Too long.
    fc.array(fc.constantFrom(...ALNUM), { minLength: maxLength + 1, maxLength: maxLength + 20 }).map((chars) => chars.join('')),
    // Empty.
    fc.constant(''),
    // Spaces only, where the field takes spaces: padding, no id.
    ...(space ? [fc.integer({ min: 1, max: maxLength }).map((n) => ' '.repeat(n))] : []),
    // A character the field does not take, anywhere in a value short enough.
    fc.tuple(valid(maxLength - 1, space), foreign, fc.nat()).map(([base, char, at]) => {
      const position = at % (base.length + 1);
      return `${base.slice(0, position)}${char}${base.slice(position)}`;
    }),
  );
}

export const validMid = (): fc.Arbitrary<string> => valid(15, true);
export const invalidMid = (): fc.Arbitrary<string> => invalid(15, true);
export const validTid = (): fc.Arbitrary<string> => valid(8, false);
export const invalidTid = (): fc.Arbitrary<string> => invalid(8, false);
