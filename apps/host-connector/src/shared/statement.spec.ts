import { withAlongside } from './statement';

describe('withAlongside', () => {
  it('should run the other statement in a WITH clause, its parameters after the main ones, renumbered', () => {
    const main = { sql: 'UPDATE a SET x = $3 WHERE id = $1 AND k = $2', params: ['id', 'k', 'x'] };
    const alongside = {
      sql: "INSERT INTO b (p, q, r) VALUES ($1, $2, now() + $10 * interval '1 ms') ON CONFLICT (p) DO UPDATE SET q = $2",
      params: ['p', 'q', ...Array(7).fill(null), 10],
    };
    const { sql, params } = withAlongside(main, alongside);
    expect(sql).toBe(
      "WITH alongside AS (INSERT INTO b (p, q, r) VALUES ($4, $5, now() + $13 * interval '1 ms') ON CONFLICT (p) DO UPDATE SET q = $5) UPDATE a SET x = $3 WHERE id = $1 AND k = $2",
    );
    expect(params).toEqual(['id', 'k', 'x', 'p', 'q', ...Array(7).fill(null), 10]);
    expect(params[13 - 1]).toBe(10);
    expect(params[5 - 1]).toBe('q');
  });

  it('should leave the main statement alone when there is nothing alongside', () => {
    const main = { sql: 'DELETE FROM a WHERE id = $1', params: [1] };
    expect(withAlongside(main, undefined)).toBe(main);
  });
});
