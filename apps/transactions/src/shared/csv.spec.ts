import fc from 'fast-check';
import { csvText } from './csv';

/** An RFC 4180 reader: what a spreadsheet does with the file. */
function parse(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') ((field += '"'), i++);
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') (row.push(field), (field = ''));
    else if (c === '\r' && text[i + 1] === '\n') (row.push(field), rows.push(row), (row = []), (field = ''), i++);
    else field += c;
  }
  return rows;
}

describe('csvText', () => {
  it('should give back every field as written, a formula-looking one behind an apostrophe, one row per line', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(null)), { minLength: 3, maxLength: 3 }), { maxLength: 10 }), (rows) => {
        const read = parse(csvText(['a', 'b', 'c'], rows));
        const expected = rows.map((row) =>
          row.map((value) => (value === null ? '' : typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : String(value))),
        );
        expect(read).toEqual([['a', 'b', 'c'], ...expected]);
      }),
    );
  });
});
