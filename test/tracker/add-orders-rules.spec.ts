import { isCategoryLevel, isFieldTooLong, isProductQuantity, readOrderDate, symbolCount } from '../../src/tracker/add-orders-rules';
import { checkAddOrder } from '../../src/tracker/payload-checks';

describe('add-orders rules (one source for the client checks and the sandbox)', () => {
  it('reads UNIX time, a date-time as UTC+03:00, and a date-time with an offset', () => {
    const utc = (text: string) => readOrderDate(text)?.toISOString();
    expect(readOrderDate(1704103200)?.toISOString()).toBe('2024-01-01T10:00:00.000Z');
    expect(utc('1704103200')).toBe('2024-01-01T10:00:00.000Z');
    expect(utc('2024-01-01 13:00:00')).toBe('2024-01-01T10:00:00.000Z');
    expect(utc('2024-01-01 10:00:00+0000')).toBe('2024-01-01T10:00:00.000Z');
    expect(utc('2024-01-01 12:30:00+02:30')).toBe('2024-01-01T10:00:00.000Z');
    expect(utc('2024-01-01 10:00:00Z')).toBe('2024-01-01T10:00:00.000Z');
    // leap days where there are some, month ends
    expect(utc('2024-02-29 10:00:00+0000')).toBe('2024-02-29T10:00:00.000Z');
    expect(utc('2000-02-29 10:00:00+0000')).toBe('2000-02-29T10:00:00.000Z');
    expect(utc('2024-12-31 23:59:59+0000')).toBe('2024-12-31T23:59:59.000Z');
    expect(utc('2024-01-01 10:00+0000')).toBe('2024-01-01T10:00:00.000Z');
  });

  it('refuses other forms and dates that do not exist', () => {
    const noDays = ['2023-02-29 10:00:00', '1900-02-29 10:00:00', '2024-04-31 10:00:00', '2024-01-00 10:00:00', '2024-00-10 10:00:00'];
    for (const bad of ['01.02.2024 10:00', '2024-02-30 10:00:00', '2024-01-01 24:00:00', 'yesterday', '', -5, null, {}, ...noDays]) {
      expect([bad, readOrderDate(bad)]).toEqual([bad, null]);
    }
  });

  it('reads the fixed forms it sends by their positions as the general form reads them (a random sweep against Date.parse)', () => {
    // Date.parse reads 'YYYY-MM-DDTHH:MM:SS±HH:MM' exactly; readOrderDate's fixed forms must give the same instant
    const pad = (n: number, width = 2) => String(n).padStart(width, '0');
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (let i = 0; i < 3000; i++) {
      const [y, mo, d, h, mi, s] = [100 + next(9900), 1 + next(12), 1 + next(31), next(24), next(60), next(60)];
      const [sign, oh, om] = [next(2) ? '+' : '-', next(15), next(4) * 15];
      const date = `${pad(y, 4)}-${pad(mo)}-${pad(d)}`;
      const time = `${pad(h)}:${pad(mi)}:${pad(s)}`;
      const iso = `${date}T${time}${sign}${pad(oh)}:${pad(om)}`;
      const expected = Date.parse(iso);
      // Date.parse rolls 2023-02-30 over to March; the service has no such day
      const real = !Number.isNaN(expected) && new Date(Date.UTC(y, mo - 1, d)).getUTCDate() === d;
      const want = real ? new Date(expected).toISOString() : undefined;
      for (const text of [`${date} ${time}${sign}${pad(oh)}${pad(om)}`, `${date} ${time}${sign}${pad(oh)}:${pad(om)}`, `${date}T${time}${sign}${pad(oh)}${pad(om)}`]) {
        expect([text, readOrderDate(text)?.toISOString()]).toEqual([text, want]);
      }
      const bare = real ? new Date(Date.parse(`${date}T${time}+03:00`)).toISOString() : undefined;
      expect([date, readOrderDate(`${date} ${time}`)?.toISOString()]).toEqual([date, bare]);
      const zulu = real ? new Date(Date.parse(`${date}T${time}Z`)).toISOString() : undefined;
      expect([date, readOrderDate(`${date} ${time}Z`)?.toISOString()]).toEqual([date, zulu]);
    }
    // near misses of the fixed forms go to the general form, which reads or refuses them as before
    expect(readOrderDate('2024-01-01 10:00:00.250+0000')?.toISOString()).toBe('2024-01-01T10:00:00.000Z');
    expect(readOrderDate('2024-01-01 10:00:00 +0000')?.toISOString()).toBe('2024-01-01T10:00:00.000Z');
    for (const bad of ['2024-01-01 10:00:00*0000', '2024-01-01 10:00:0a+0000', '2024-01-01 10:00:00+00a0', '2024-01-01 10:00:00+00-00', '2024/01/01 10:00:00+0000', '2024-01-01 10:00:00X']) {
      expect([bad, readOrderDate(bad)]).toEqual([bad, null]);
    }
  });

  it('counts symbols, not UTF-16 units, against the 1000-symbol limit', () => {
    expect(symbolCount('😀'.repeat(1001))).toBe(1001);
    expect(isFieldTooLong('😀'.repeat(1000))).toBe(false);
    expect(isFieldTooLong('x'.repeat(1001))).toBe(true);
  });

  it('accepts category keys level1 to level5 only, and integer quantities', () => {
    expect(['level1', 'level5', 'level6', 'level0', 'level01', 'Level1'].map(isCategoryLevel)).toEqual([true, true, false, false, false, false]);
    expect([2, 0, 1.5, '2', null].map(isProductQuantity)).toEqual([true, true, false, false, false]);
  });

  it('makes the client flag what the sandbox skips or refuses: an impossible date, an unusual level key', () => {
    const problems = checkAddOrder({
      id: 'D-9', date_create: '2024-02-30 10:00:00',
      products: [{ id: 'p', name: 'n', quantity: 1, category: { level01: 'x' } as never }],
    });
    expect(problems.map((p) => p.field)).toEqual(['date_create', 'products[0].category.level01']);
  });
});
