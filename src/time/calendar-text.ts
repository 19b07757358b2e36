/**
 * A calendar date written by a person rather than a program: what a CRM's text field or a sheet's cell holds when
 * no format was enforced ("8 февраля 1992", "08.02.1992", "Feb 8, 1992", "1992-02-08"). The connectors read a
 * value in its declared format first and come here only when that fails (a birth date typed by hand), so a
 * client is not refused for a date anyone can read. Offered to connectors by `tracker-sync/connector`.
 *
 * Read: ISO `YYYY-MM-DD` (a time and offset after it are ignored: the date as written), `YYYY.MM.DD`,
 * `YYYY/MM/DD`; day first `DD.MM.YYYY` and `DD-MM-YYYY`; `DD/MM/YYYY` or `MM/DD/YYYY` only when the order is
 * certain (one of the first two numbers is over 12); a month by its Russian or English name or abbreviation, in
 * any case and grammatical case, with the day before or after it and a four-digit year ("8 февраля 1992 г.",
 * "8-Feb-1992", "February 8th, 1992"). Anything else, or an impossible day (31.02.1992), is null.
 */

/** Month by the start of its name: Russian stems (every case: февраля, феврале, февр.), English names and abbreviations. */
const MONTH_STEMS: readonly [string, number][] = [
  ['янв', 1], ['фев', 2], ['мар', 3], ['апр', 4], ['мая', 5], ['май', 5], ['мае', 5], ['июн', 6], ['июл', 7],
  ['авг', 8], ['сен', 9], ['окт', 10], ['ноя', 11], ['дек', 12],
  ['jan', 1], ['feb', 2], ['mar', 3], ['apr', 4], ['may', 5], ['jun', 6], ['jul', 7], ['aug', 8], ['sep', 9],
  ['oct', 10], ['nov', 11], ['dec', 12],
];

/** Words around a date that say nothing: "г.", "года", "year". */
const FILLER = new Set(['г', 'гг', 'год', 'года', 'году', 'year', 'of', 'the']);

const ISO_DAY = /^(\d{4})[-./](\d{1,2})[-./](\d{1,2})(?:$|[T\s])/;
const NUMERIC_DAY = /^(\d{1,2})([-./])(\d{1,2})\2(\d{4})$/;

export function readCalendarText(value: string): string | null {
  const text = value.trim();
  if (text === '' || text.length > 60) return null;
  const iso = ISO_DAY.exec(text);
  if (iso) return calendarDay(+iso[1], +iso[2], +iso[3]);
  const numeric = NUMERIC_DAY.exec(text);
  if (numeric) return numericDay(+numeric[1], numeric[2], +numeric[3], +numeric[4]);
  return namedMonthDay(text);
}

function numericDay(first: number, separator: string, second: number, year: number): string | null {
  if (separator !== '/') return calendarDay(year, second, first);
  if (first > 12 && second <= 12) return calendarDay(year, second, first);
  if (second > 12 && first <= 12) return calendarDay(year, first, second);
  return first === second ? calendarDay(year, first, first) : null; // 02/08/1992: 2 August or February 8?
}

function namedMonthDay(text: string): string | null {
  const words = text.toLowerCase().replace(/ё/g, 'е').split(/[\s,.\-/]+/).filter((word) => word !== '' && !FILLER.has(word));
  let month = 0;
  let year = 0;
  let day = 0;
  for (const word of words) {
    const number = /^(\d{1,4})(?:st|nd|rd|th|-?го|-?е)?$/.exec(word);
    if (number) {
      const digits = number[1];
      if (digits.length === 4 && !year) year = +digits;
      else if (digits.length <= 2 && !day) day = +digits;
      else return null;
      continue;
    }
    const named = monthOf(word);
    if (!named || month) return null;
    month = named;
  }
  return month && year && day ? calendarDay(year, month, day) : null;
}

function monthOf(word: string): number {
  if (word.length < 3 || !/^[a-zа-я]+$/.test(word)) return 0;
  const stem = word.slice(0, 3);
  for (const [start, month] of MONTH_STEMS) if (stem === start) return month;
  return 0;
}

function calendarDay(year: number, month: number, day: number): string | null {
  if (year < 1000 || month < 1 || month > 12 || day < 1) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
