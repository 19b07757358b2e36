/**
 * Numbers as spreadsheets export them: `1234.5`, `1 234,50` (space, U+00A0, U+2007, U+2009 or U+202F between
 * groups), `1,234.50`, `1.234.567`, `1'234`, a leading or trailing ₽/$/€, or a currency word before or after the
 * number (`48 990 руб.`, `500 р.`, `RUB 1 000`, `USD 20`: a Windows-1251 export cannot even hold ₽). With one kind
 * of separator, a single comma is the decimal mark (Russian locale) and repeated ones group thousands; with
 * both, the last one is decimal. Returns NaN for anything else (the caller names the value).
 */

const PLAIN = 0;
const NEEDS_CLEANING = 1;
const INVALID = 2;

/** A currency word or sign: `руб.`, `рублей`, `р.`, `₽`, `RUB`, `RUR`, `USD`, `EUR`, `US$`, `$`, `€` (any case). */
const CURRENCY = '(?:руб(?:лей|ля|ль)?\\.?|р\\.?|₽|rub\\.?|rur|usd|eur|us\\$|\\$|€)';
/** one currency before the number and/or one after it; the middle is the number (`[^]` keeps line breaks out of the way) */
const WITH_CURRENCY = new RegExp(`^\\s*(?:${CURRENCY}\\s*)?([^]*?)(?:\\s*${CURRENCY})?\\s*$`, 'iu');

export function parseNumber(text: string): number {
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
