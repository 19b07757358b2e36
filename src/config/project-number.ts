/**
 * A project number as the service writes it: a positive integer in digits, without a leading zero, sign, space or
 * decimals. Every place a number comes from (the config, TRACKER_PROJECT, `init --project`) takes only this spelling:
 * "02" and "2" are one project to the service (its URLs read a number) but two strings to every check and budget
 * keyed by the text, so "02" passed "one project number per service" and sent client B's data into client A's "2".
 */
export const PROJECT_NUMBER = /^[1-9]\d*$/;

/** Digits with leading zeros, a sign, spaces or a zero fraction: a way of writing an integer. */
const INTEGER_SPELLING = /^\s*\+?\d+(\.0*)?\s*$/;

/** The number `value` spells, as the service writes it ("02", " 2", "+2", "2.0" → "2"); undefined when it spells no positive integer. */
export function canonicalProjectNumber(value: string): string | undefined {
  if (PROJECT_NUMBER.test(value)) return value;
  if (!INTEGER_SPELLING.test(value)) return undefined;
  const digits = value.trim().replace(/^\+/, '').replace(/\.0*$/, '').replace(/^0+/, '');
  return digits ? digits : undefined;
}

/** Why `value` is no project number as the config takes it, worded to follow the quoted value; undefined when it is one. */
export function projectNumberProblem(value: unknown): string | undefined {
  if (typeof value === 'string' && PROJECT_NUMBER.test(value)) return undefined;
  const canonical = typeof value === 'string' ? canonicalProjectNumber(value) : undefined;
  if (canonical) return `must be written "${canonical}" (a project number: digits only, no leading zero, sign, space or decimals)`;
  if (typeof value === 'string' && INTEGER_SPELLING.test(value)) return 'must be a project number (1 or more)';
  return 'must be a project number (digits only)';
}
