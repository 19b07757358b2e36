import { dateReading, parseCalendarDate, parseInstant, serialToInstant } from '../../../connectors/spreadsheet/values/dates';
import { ambiguousMark, parseNumber } from '../../../connectors/spreadsheet/values/numbers';
import { roundedByExcel } from '../../../connectors/spreadsheet/values/excel-numbers';
import { IdRegistry } from '../../../connectors/spreadsheet/values/id-registry';
import { categoryPath } from '../../../connectors/spreadsheet/mapping/deal-parts';
import { detectDelimiter, detectEncoding } from '../../../connectors/spreadsheet/source/text-sniff';
import iconv from 'iconv-lite';

const moscow = dateReading('Europe/Moscow');
const iso = (ms: number) => new Date(ms).toISOString();

describe('spreadsheet dates', () => {
  it('reads wall-clock times in the sheet zone: 10.03.2025 12:00 in Moscow is 09:00Z', () => {
    expect(iso(parseInstant('10.03.2025 12:00', moscow))).toBe('2025-03-10T09:00:00.000Z');
    expect(iso(parseInstant('10.03.2025', moscow))).toBe('2025-03-09T21:00:00.000Z');
    expect(iso(parseInstant('2025-03-10 12:00:30', moscow))).toBe('2025-03-10T09:00:30.000Z');
    expect(iso(parseInstant('10.03.25 12:00', moscow))).toBe('2025-03-10T09:00:00.000Z');
  });

  it('honours an explicit offset and Z in ISO 8601', () => {
    expect(iso(parseInstant('2025-03-10T12:00:00Z', moscow))).toBe('2025-03-10T12:00:00.000Z');
    expect(iso(parseInstant('2025-03-10T12:00:00.250+05:00', moscow))).toBe('2025-03-10T07:00:00.250Z');
    expect(iso(parseInstant('2025-03-10 12:00:00 +0000', moscow))).toBe('2025-03-10T12:00:00.000Z');
    expect(iso(parseInstant('2025-03-10T12:00-03', moscow))).toBe('2025-03-10T15:00:00.000Z');
  });

  it('is correct across DST in other zones', () => {
    const ny = dateReading('America/New_York');
    expect(iso(parseInstant('2025-03-08 12:00', ny))).toBe('2025-03-08T17:00:00.000Z'); // EST
    expect(iso(parseInstant('2025-03-10 12:00', ny))).toBe('2025-03-10T16:00:00.000Z'); // EDT
    expect(iso(parseInstant('2025-03-09 01:30', ny))).toBe('2025-03-09T06:30:00.000Z'); // before the jump
    expect(iso(parseInstant('2025-03-09 03:30', ny))).toBe('2025-03-09T07:30:00.000Z'); // after it
    expect(iso(parseInstant('2025-11-02 01:30', ny))).toBe('2025-11-02T05:30:00.000Z'); // first 01:30 (EDT)
    const berlin = dateReading('Europe/Berlin');
    expect(iso(parseInstant('30.03.2025 01:59', berlin))).toBe('2025-03-30T00:59:00.000Z');
    expect(iso(parseInstant('30.03.2025 03:00', berlin))).toBe('2025-03-30T01:00:00.000Z');
  });

  it('reads Excel serials and UNIX seconds', () => {
    expect(iso(parseInstant('45726.5', moscow))).toBe('2025-03-10T09:00:00.000Z');
    expect(iso(serialToInstant(45726, moscow))).toBe('2025-03-09T21:00:00.000Z');
    expect(iso(parseInstant('1741597200', moscow))).toBe('2025-03-10T09:00:00.000Z');
  });

  it('reads MM/DD/YYYY only with a month-first hint', () => {
    expect(iso(parseInstant('03/10/2025', dateReading('Europe/Moscow', 'DD/MM/YYYY')))).toBe('2025-10-02T21:00:00.000Z');
    expect(iso(parseInstant('03/10/2025', dateReading('Europe/Moscow', 'MM/DD/YYYY')))).toBe('2025-03-09T21:00:00.000Z');
  });

  it('without a date_format, refuses a slash date that reads both ways, never guessing; reads one that reads one way', () => {
    for (const text of ['01/02/2026 10:00:00', '03/10/2025', '12/01/25']) {
      expect({ text, instant: parseInstant(text, moscow), day: parseCalendarDate(text, moscow) }).toEqual({ text, instant: NaN, day: null });
    }
    expect(iso(parseInstant('31/12/2025 10:00', moscow))).toBe('2025-12-31T07:00:00.000Z');
    expect(iso(parseInstant('05/05/2025', moscow))).toBe('2025-05-04T21:00:00.000Z'); // the same either way
    expect(parseInstant('12/31/2025', moscow)).toBeNaN(); // month first: needs date_format
    // dotted and dashed dates stay day first
    expect(parseCalendarDate('01.02.2026', moscow)).toBe('2026-02-01');
    expect(parseCalendarDate('01-02-2026', moscow)).toBe('2026-02-01');
    expect(parseCalendarDate('01.02.2026', dateReading('Europe/Moscow', 'MM/DD/YYYY'))).toBe('2026-02-01');
  });

  it.each(['31.02.2025', '29.02.2025', '2025-13-01', '10.03.2025 24:00', '10.03.2025 12:60', 'yesterday', '2025-03-10T12:00+25:00', '1.2', '-1', ''])(
    'rejects %j',
    (text) => expect(parseInstant(text, moscow)).toBeNaN(),
  );

  it("reads a two-digit year as Excel does: 00-29 are 20xx, 30-99 are 19xx", () => {
    expect(parseCalendarDate('05.03.80', moscow)).toBe('1980-03-05');
    expect(parseCalendarDate('05.03.30', moscow)).toBe('1930-03-05');
    expect(parseCalendarDate('05.03.29', moscow)).toBe('2029-03-05');
    expect(parseCalendarDate('05/03/00', dateReading('Europe/Moscow', 'DD/MM/YY'))).toBe('2000-03-05');
    expect(iso(parseInstant('31.12.99 23:00', moscow))).toBe('1999-12-31T20:00:00.000Z');
    expect(iso(parseInstant('03/05/75', dateReading('Europe/Moscow', 'MM/DD/YY')))).toBe('1975-03-04T21:00:00.000Z');
  });

  it('reads calendar dates without a zone shift', () => {
    expect(parseCalendarDate('17.05.1990', moscow)).toBe('1990-05-17');
    expect(parseCalendarDate('1990-05-17', moscow)).toBe('1990-05-17');
    expect(parseCalendarDate('29.02.2024', moscow)).toBe('2024-02-29');
    expect(parseCalendarDate('45726', moscow)).toBe('2025-03-10');
    expect(parseCalendarDate('30.02.2024', moscow)).toBeNull();
  });
});

describe('spreadsheet numbers', () => {
  it.each([
    ['1234.5', 1234.5],
    ['1 234,50', 1234.5],
    ['1\u00a0234,50', 1234.5],
    ['1\u202f234,50', 1234.5],
    ['1,234.50', 1234.5],
    ['1.234.567', 1234567],
    ['1.234,5', 1234.5],
    ["1'234", 1234],
    ['-12,5', -12.5],
    ['1 500 ₽', 1500],
    ['$99.90', 99.9],
    ['1e3', 1000],
    ['48 990 руб.', 48990],
    ['48\u00a0990,50 руб', 48990.5],
    ['48\u2009990 р.', 48990],
    ['1\u202f500 р', 1500],
    ['2 500 рублей', 2500],
    ['RUB 1 000', 1000],
    ['1 000 rub', 1000],
    ['USD 20.5', 20.5],
    ['€ 1.234,50', 1234.5],
    ['1 234,50 €', 1234.5],
    ['$ 1,234.50', 1234.5],
    ['-5 руб.', -5],
    ['\u20bd48\u00a0990', 48990],
  ])('reads %j as %d', (text, value) => expect(parseNumber(text)).toBe(value));

  it.each(['abc', 'NaN', '12abc', '1-2', '', '0x10', 'e5', 'руб.', '12 тыс. руб.', '12 руб. руб.', 'около 900 руб.', '12 kg'])('rejects %j', (text) => expect(parseNumber(text)).toBeNaN());

  it('leaves 1e400 infinite for the caller to reject', () => expect(parseNumber('1e400')).toBe(Infinity));

  // a US export's 1,234 is 1234, a Russian one's 1.234: only the shape that either reads is refused a guess
  it.each(['1,234', '12,345', '999.999', '-1,234', '$ 1,234', '1,234 руб.', 'USD 12.345', '100,000'])('finds %j ambiguous without a decimal_mark', (text) => {
    expect(ambiguousMark(text)).toBe(true);
  });

  it.each(['1.234,50', '1,234.50', '1,234,567', '1.234.567', '0,123', '0.500', '1234,567', '1 234,567', '1,5', '12,34', '1,2345', '1 234,50 руб.', '$ 1,234.50', '1e3', '1234'])(
    'reads %j unambiguously', (text) => expect(ambiguousMark(text)).toBe(false),
  );

  it.each([
    ['1,234', ',', 1.234], ['1,234', '.', 1234], ['12.345', ',', 12345], ['12.345', '.', 12.345],
    ['1.234.567,5', ',', 1234567.5], ['1,234,567.5', '.', 1234567.5], ['1 234,50 руб.', ',', 1234.5], ['$ 1,234.50', '.', 1234.5],
    ['1\u00a0234.5', '.', 1234.5], ["1'234,5", ',', 1234.5], ['-12,5', ',', -12.5], ['1e3', '.', 1000], ['0,5', ',', 0.5],
  ] as const)('reads %j with decimal_mark %j as %d', (text, mark, value) => expect(parseNumber(text, mark)).toBe(value));

  // with a decimal mark the other one only groups thousands: a number it does not fit is refused, never read 1000 times off
  it.each([
    ['1,5', '.'], ['1.5', ','], ['1,234,567', ','], ['1.234.567', '.'], ['1,234.50', ','], ['1.234,50', '.'], ['12,34,567', '.'], ['0,123', '.'], ['abc', ','], ['', '.'],
  ] as const)('rejects %j with decimal_mark %j', (text, mark) => expect(parseNumber(text, mark)).toBeNaN());
});

describe("Excel's rounded numbers", () => {
  it.each(['1,23457E+11', '1.23457E+11', '1,23457e+011', '7,91612E+10', '1,00197E+06', '1E+11', '-1,2E+11', '1,5E-05'])('%j is a number Excel rounded', (text) => {
    expect(roundedByExcel(text)).toBe(true);
  });

  it.each(['123456789012', '3E4', 'E+11', '12,3E+11', 'SKU-1E+11', '1,23457E+11x', 'D-1001'])('%j is not', (text) => expect(roundedByExcel(text)).toBe(false));
});

describe('id registry', () => {
  it('remembers the first row of each id across growth', () => {
    const ids = new IdRegistry();
    for (let i = 0; i < 20_000; i++) expect(ids.remember(`id-${i}`, i + 2)).toBe(0);
    expect(ids.remember('id-0', 99_999)).toBe(2);
    expect(ids.remember('id-19999', 99_999)).toBe(20_001);
    expect(ids.remember('new', 5)).toBe(0);
  });

  it('reserves its table once for the ids a reader expects, and still grows past a low guess', () => {
    const ids = new IdRegistry();
    for (let i = 0; i < 100; i++) ids.remember(`early-${i}`, i + 2);
    ids.reserve(50_000);
    const reserved = ids.slots;
    expect(reserved).toBeGreaterThanOrEqual(50_000 / 0.75);
    expect(reserved).toBeLessThan(50_000 / 0.75 + 10);
    for (let i = 0; i < 49_900; i++) expect(ids.remember(`id-${i}`, i + 200)).toBe(0);
    expect(ids.slots).toBe(reserved);
    // what came before the reservation is still known, and so is the rest
    expect(ids.remember('early-7', 1)).toBe(9);
    expect(ids.remember('id-49899', 1)).toBe(50_099);
    for (let i = 49_900; i < 60_000; i++) expect(ids.remember(`id-${i}`, i + 200)).toBe(0);
    expect(ids.slots).toBe(reserved * 2);
    expect(ids.remember('id-123', 1)).toBe(323);
    expect(ids.remember('early-99', 1)).toBe(101);
    ids.reserve(10); // never shrinks
    expect(ids.slots).toBe(reserved * 2);
  });
});

describe('text sniffing', () => {
  const russian = 'Номер;Название;Статус\n101;Кухня «Прованс» — заказ №5;Новая\n102;ООО «РОМАШКА»;Оплачено\n';

  it('tells UTF-8 (with or without BOM) from Windows-1251', () => {
    expect(detectEncoding(Buffer.from(russian)).encoding).toBe('utf-8');
    expect(detectEncoding(Buffer.from(`\uFEFF${russian}`))).toEqual({ encoding: 'utf-8', detectedBy: 'BOM' });
    expect(detectEncoding(iconv.encode(russian.repeat(20), 'win1251')).encoding).toBe('windows-1251');
  });

  it('reads a mostly UTF-8 sample with a foreign row as UTF-8', () => {
    const mixed = Buffer.concat([Buffer.from(russian.repeat(5)), iconv.encode('103;Комод;Новая\n', 'win1251')]);
    expect(detectEncoding(mixed).encoding).toBe('utf-8');
  });

  it('picks the delimiter of the header line, ignoring quoted ones', () => {
    expect(detectDelimiter('id;title;"a,b,c";price')).toBe(';');
    expect(detectDelimiter('id,title,price')).toBe(',');
    expect(detectDelimiter('id\ttitle\t"x;y"')).toBe('\t');
  });
});

describe('spreadsheet category paths', () => {
  it('cuts a path at each ">" and drops what String#trim drops around each level, empty levels too', () => {
    const byTrim = (text: string) => text.split('>').map((part) => part.trim()).filter((part) => part !== '');
    const spaces = [' ', '\t', '\u00a0', '\u2007', '\u3000', '\ufeff', '\r\n'];
    const samples = ['Catalog > Group 1 > Item', 'A>B>C', ' > A >> B > ', '', '>', 'Электроника > Телефоны', 'x y > z\u00a0w'];
    for (const space of spaces) samples.push(`${space}Home${space}>${space}Kitchen${space}>${space}${space}`);
    for (const text of samples) expect([text, categoryPath(text)]).toEqual([text, byTrim(text)]);
    expect(categoryPath(null)).toEqual([]);
  });
});
