import fc from 'fast-check';
import { fieldName, MAX_ECHOED_NAME, printable } from './client-text';

describe('fieldName: a client-chosen name as an error text repeats it', () => {
  it('should be at most 6 × 64 + 1 characters, with no control, lone surrogate, markup or invisible format character, whatever was sent', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 2000 }), fc.string({ unit: fc.constantFrom('<', '>', '&', '\u0000', '\u001b', '\u2028', '\u202e', '\ufeff', '\ud800', 'a') })), (name) => {
        const shown = fieldName(name);
        expect(shown.length).toBeLessThanOrEqual(6 * MAX_ECHOED_NAME + 1);
        expect(shown).not.toMatch(/[<>&\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
        if (name.length > MAX_ECHOED_NAME) expect(shown.endsWith('…')).toBe(true);
      }),
    );
  });

  it('should leave a plain name of up to 64 characters as it is, and keep a surrogate pair whole at the cut', () => {
    fc.assert(fc.property(fc.stringMatching(/^[A-Za-z0-9_.]{1,64}$/), (name) => expect(fieldName(name)).toBe(name)));
    expect(fieldName(`${'a'.repeat(63)}\ud83d\ude00tail`)).toBe(`${'a'.repeat(63)}…`);
    expect(fieldName('<script>')).toBe('\\u003cscript\\u003e');
  });

  it('should keep log lines as before: printable leaves markup as it is', () => {
    expect(printable('<a>\u0000')).toBe('<a>\\u0000');
  });
});
