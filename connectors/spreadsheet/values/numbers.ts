/**
 * Numbers as spreadsheets export them: `1234.5`, `1 234,50` (space, U+00A0, U+2007, U+2009 or U+202F between
 * groups), `1,234.50`, `1.234.567`, `1'234`, a leading or trailing ₽/$/€, or a currency word before or after the
 * number (`48 990 руб.`, `500 р.`, `RUB 1 000`, `USD 20`: a Windows-1251 export cannot even hold ₽). Without a
 * decimal mark from the settings, a single comma or dot is the decimal mark (Russian locale) and repeated ones
 * group thousands; with both, the last one is decimal: `1,234` guessed so is 1.234, which a US export means as
 * 1234, so the caller rejects that shape (ambiguousMark) instead of trusting the guess. With a decimal mark, the
 * other one only groups thousands. Returns NaN for anything else (the caller names the value).
 */

/** the stream's `decimal_mark`; null: guessed per cell */
export type DecimalMark = ',' | '.';

const PLAIN = 0;
const NEEDS_CLEANING = 1;
const INVALID = 2;

/** A currency word or sign: `руб.`, `рублей`, `р.`, `₽`, `RUB`, `RUR`, `USD`, `EUR`, `US$`, `$`, `€` (any case). */
const CURRENCY = '(?:руб(?:лей|ля|ль)?\\.?|р\\.?|₽|rub\\.?|rur|usd|eur|us\\$|\\$|€)';
/** one currency before the number and/or one after it; the middle is the number (`[^]` keeps line breaks out of the way) */
const WITH_CURRENCY = new RegExp(`^\\s*(?:${CURRENCY}\\s*)?([^]*?)(?:\\s*${CURRENCY})?\\s*$`, 'iu');

export function parseNumber(text: string, mark: DecimalMark | null = null): number {
  if (mark !== null) return withMark(text, mark);
  const shape = classify(text);
  if (shape === PLAIN) return text.length === 0 ? NaN : Number(text);
  if (shape === INVALID) return withoutCurrency(text);
  return Number(clean(text));
}

/** The slow path, only for text with letters or other signs: a currency word around the number is dropped. */
function withoutCurrency(text: string): number {
  const number = WITH_CURRENCY.exec(text)?.[1];
  if (number === undefined || number === '' || number.length === text.length) return NaN;
  const shape = classify(number);
  if (shape === INVALID) return NaN;
  return shape === PLAIN ? Number(number) : Number(clean(number));
}

/**
 * One separator, then exactly three digits, after a group of one to three digits that is not 0: `1,234`, `12.345`,
 * `-100,000`, `$ 1,234`. Read either way it is a number (1.234 or 1234), and a sheet's other cells rarely tell which
 * the export meant, so only a `decimal_mark` setting may decide. `1.234,50`, `1,234,567`, `0,125`, `1234,567` and
 * `1 234,567` (a space groups, so the comma is decimal) are not ambiguous.
 */
const AMBIGUOUS = /^[+-]?[1-9]\d{0,2}[.,]\d{3}$/;
/** what a number may hold without a currency around it; anything else may be a currency to strip first */
const NUMBER_CHARS = /^[\d.,+-]*$/;
/** a character that is neither a digit, a mark nor a group separator: a currency may be around the number */
const OTHER_CHAR = /[^\d.,+\-\s'\u00a0\u202f\u2009\u2007]/;

export function ambiguousMark(text: string): boolean {
  if (text.length < 5 || (text.indexOf(',') < 0 && text.indexOf('.') < 0)) return false;
  if (AMBIGUOUS.test(text)) return true;
  // a space between digits groups them, so `1 234,567` is not ambiguous: only a currency can hide the shape
  if (!OTHER_CHAR.test(text)) return false;
  const number = WITH_CURRENCY.exec(text)?.[1];
  return number !== undefined && number !== text && AMBIGUOUS.test(number);
}

/** why an ambiguous number is not read: its two readings (`1.234 or 1234`), and the setting that decides */
export function ambiguity(text: string, where = ''): string {
  const number = AMBIGUOUS.test(text) ? text : WITH_CURRENCY.exec(text)![1];
  const readings = `${Number(number.replace(',', '.'))} or ${Number(number.replace(/[.,]/, ''))}`;
  return `${JSON.stringify(text)} could be ${readings}${where}: set decimal_mark: "," or "." for this sheet`;
}

/**
 * With the stream's decimal mark: at most one, after the digits; the other mark, spaces and `'` only group
 * thousands, three digits a group (`1.234.567,5` with `,`; `1,234.5` with `.`). A number the mark does not fit
 * (`1,5` when the mark is `.`) is NaN: read any other way it would be 1000 times off.
 */
function withMark(text: string, mark: DecimalMark): number {
  const number = NUMBER_CHARS.test(text) ? text : WITH_CURRENCY.exec(text)?.[1];
  if (number === undefined || number === '') return NaN;
  const match = (mark === ',' ? COMMA_DECIMAL : DOT_DECIMAL).exec(number);
  if (!match || (match[2] === '' && match[3] === undefined)) return NaN;
  return Number(`${match[1]}${match[2].replace(GROUP_SEPARATORS, '')}${match[3] === undefined ? '' : `.${match[3]}`}${match[4] ?? ''}`);
}

/** sign, integer part (plain, or grouped by threes), decimals after the mark, exponent */
const COMMA_DECIMAL = /^([+-]?)([1-9]\d{0,2}(?:[. '\u00a0\u202f\u2009\u2007]\d{3})+|\d*)(?:,(\d+))?([eE][+-]?\d+)?$/;
const DOT_DECIMAL = /^([+-]?)([1-9]\d{0,2}(?:[, '\u00a0\u202f\u2009\u2007]\d{3})+|\d*)(?:\.(\d+))?([eE][+-]?\d+)?$/;
const GROUP_SEPARATORS = /[., '\u00a0\u202f\u2009\u2007]/g;

/** digits with an optional sign, one dot and an exponent go straight to Number() */
function classify(text: string): number {
  let shape = PLAIN;
  let dots = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) continue;
    if (c === 46) {
      if (++dots > 1) shape = NEEDS_CLEANING;
    } else if (c === 45 || c === 43) {
      if (i !== 0 && !isExponent(text.charCodeAt(i - 1))) shape = NEEDS_CLEANING;
    } else if (isExponent(c)) {
      if (i === 0) return INVALID;
    } else if (isIgnorable(c) || c === 44) {
      shape = NEEDS_CLEANING;
    } else {
      return INVALID;
    }
  }
  return shape;
}

function clean(text: string): string {
  let digits = '';
  let lastComma = -1;
  let lastDot = -1;
  let commas = 0;
  let dots = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isIgnorable(c)) continue;
    if (c === 44) {
      commas++;
      lastComma = digits.length;
    } else if (c === 46) {
      dots++;
      lastDot = digits.length;
    }
    digits += text[i];
  }
  const decimalAt = decimalPosition(commas, dots, lastComma, lastDot);
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    const c = digits.charCodeAt(i);
    if (c === 44 || c === 46) {
      if (i === decimalAt) out += '.';
    } else {
      out += digits[i];
    }
  }
  return out;
}

function decimalPosition(commas: number, dots: number, lastComma: number, lastDot: number): number {
  if (commas > 0 && dots > 0) return Math.max(lastComma, lastDot);
  if (commas === 1) return lastComma;
  if (dots === 1) return lastDot;
  return -1;
}

function isExponent(c: number): boolean {
  return c === 101 || c === 69;
}

/** group separators and currency signs */
function isIgnorable(c: number): boolean {
  return c === 32 || c === 0xa0 || c === 0x202f || c === 0x2009 || c === 0x2007 || c === 39 || c === 0x20bd || c === 36 || c === 0x20ac;
}
