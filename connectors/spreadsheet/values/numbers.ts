/**
 * Numbers as spreadsheets export them: `1234.5`, `1 234,50` (space, U+00A0 or U+202F between groups),
 * `1,234.50`, `1.234.567`, `1'234`, a leading or trailing ₽/$/€. With one kind of separator, a single comma
 * is the decimal mark (Russian locale) and repeated ones group thousands; with both, the last one is decimal.
 * Returns NaN for anything else (the caller names the value).
 */

const PLAIN = 0;
const NEEDS_CLEANING = 1;
const INVALID = 2;

export function parseNumber(text: string): number {
  const shape = classify(text);
  if (shape === PLAIN) return text.length === 0 ? NaN : Number(text);
  if (shape === INVALID) return NaN;
  return Number(clean(text));
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
  return c === 32 || c === 0xa0 || c === 0x202f || c === 0x2009 || c === 39 || c === 0x20bd || c === 36 || c === 0x20ac;
}
