import * as sqlite3 from 'sqlite3';
import { sqlLiteral } from '../../src/sandbox/storage/prepared-sql';

/** Every literal is read back by a real SQLite: what comes out must be what went in. */
describe('sqlLiteral', () => {
  let db: sqlite3.Database;
  beforeAll(() => {
    db = new sqlite3.Database(':memory:');
  });
  afterAll(() => new Promise<void>((resolve) => db.close(() => resolve())));

  const readBack = (value: unknown): Promise<unknown> => new Promise((resolve, reject) => {
    db.get(`SELECT ${sqlLiteral(value)} AS v`, (error: Error | null, row: { v: unknown }) => (error ? reject(error) : resolve(row.v)));
  });

  it.each([
    "it's", "''", 'a\u0000b', '\u0000', 'Ünïcödé 🚀', "x'); DROP TABLE t; --", 'back\\slash', '', 'line\nbreak',
  ])('reads the string %j back unchanged', async (text) => {
    expect(await readBack(text)).toBe(text);
  });

  it('writes numbers as numbers, booleans as 1/0, and null, undefined, NaN and Infinity as NULL', async () => {
    for (const number of [0, -1, 1.25, -0.5, 1e21, 2 ** 53, 1e-7]) expect(await readBack(number)).toBe(number);
    expect(await readBack(true)).toBe(1);
    expect(await readBack(false)).toBe(0);
    for (const empty of [null, undefined, NaN, Infinity, -Infinity]) expect(await readBack(empty)).toBeNull();
  });

  it('refuses other types instead of storing them silently', () => {
    expect(() => sqlLiteral({ a: 1 })).toThrow('cannot write a object');
    expect(() => sqlLiteral(10n)).toThrow('cannot write a bigint');
  });
});
