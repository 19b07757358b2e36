/**
 * Numbers Excel has already cut short before a sheet reaches us. A General column shows a number of 12 digits or
 * more as `1,23457E+11` (`1.23457E+11` in an English locale; other programs write `1,23457e+011`), and a CSV export
 * writes what the column shows: the id's last digits are gone from the file. Read as text, such an id is a second
 * record beside the real one (two ids rounding alike even merge), a visit that cannot exist, or a phone split at
 * its comma. Only that shape: a mantissa of one digit, a signed exponent of one to three digits.
 */
const ROUNDED = /^[+-]?\d(?:[.,]\d+)?[eE][+-]\d{1,3}$/;

/** the same shape among the phones of one cell (`+7 916 000-00-01, 7,91612E+10`) */
export const ROUNDED_IN_LIST = /(?<![\w.+-])[+-]?\d(?:[.,]\d+)?[eE][+-]\d{1,3}(?![\w.,])/g;

/** why such a value is not read: what happened, and how to get the digits back */
export function roundedReason(text: string, where = ''): string {
  return `${JSON.stringify(text)} looks like a number Excel rounded to scientific notation${where}: its digits are lost; format the column as text before exporting`;
}

export function roundedByExcel(text: string): boolean {
  return text.length >= 4 && ROUNDED.test(text);
}

/**
 * An XLSX number cell holds a double: past 2^53 not every whole number is one, so an id stored as a number that
 * large is some other number (Excel itself keeps 15 significant digits).
 */
export function tooLargeToBeExact(value: number): boolean {
  return Number.isFinite(value) && Math.abs(value) > Number.MAX_SAFE_INTEGER;
}
