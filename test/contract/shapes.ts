/**
 * Asymmetric matchers for the specification's field types, usable inside toEqual /
 * toMatchObject. jest treats any object with `asymmetricMatch` as a matcher.
 */
export interface Matcher {
  asymmetricMatch(value: unknown): boolean;
  toAsymmetricMatcher(): string;
  toString(): string;
}

function matcher(name: string, test: (value: unknown) => boolean): Matcher {
  return { asymmetricMatch: test, toAsymmetricMatcher: () => name, toString: () => name };
}

function matches(expected: unknown, value: unknown): boolean {
  if (expected && typeof (expected as Matcher).asymmetricMatch === 'function') {
    return (expected as Matcher).asymmetricMatch(value);
  }
  return Object.is(expected, value);
}

function nameOf(expected: unknown): string {
  const m = expected as Matcher;
  return typeof m?.toAsymmetricMatcher === 'function' ? m.toAsymmetricMatcher() : JSON.stringify(expected);
}

export const str = matcher('string', (v) => typeof v === 'string');
export const num = matcher('number', (v) => typeof v === 'number' && Number.isFinite(v));
export const int = matcher('integer', (v) => Number.isInteger(v));
export const bool = matcher('boolean', (v) => typeof v === 'boolean');
/** The lead `price`: a string in the field table, a number in the responses. */
export const numOrStr = matcher('number or string', (v) => typeof v === 'number' || typeof v === 'string');
export const obj = matcher('object', (v) => !!v && typeof v === 'object' && !Array.isArray(v));
export const zeroOne = matcher('0 or 1', (v) => v === 0 || v === 1);
/** `YYYY-MM-DD` */
export const plainDate = matcher('YYYY-MM-DD', (v) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v));
/** Convention 7: timestamps in responses are `YYYY-MM-DDTHH:MM:SS+0000` unless stated. */
export const timestamp = matcher('YYYY-MM-DDTHH:MM:SS+0000', (v) => typeof v === 'string' && UTC_TIMESTAMP.test(v));
export const UTC_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/;

/** `YYYY-MM-DD HH:MM:SS`, where the specification states that form (projects, proxy leads, expense add). */
export const dateTime = matcher('YYYY-MM-DD HH:MM:SS', (v) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(v));

/** The response form of an instant: what a `+0000` date we sent must come back as. */
export function responseTimestamp(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, '+0000');
}

/** `null or T` of the specification: present, and null or T. */
export function nullOr(inner: unknown): Matcher {
  return matcher(`null or ${nameOf(inner)}`, (v) => v === null || matches(inner, v));
}

export function oneOf(...values: unknown[]): Matcher {
  return matcher(`one of ${values.map((v) => JSON.stringify(v)).join(', ')}`, (v) => values.some((x) => Object.is(x, v)));
}

/** An array whose every item matches `inner` (empty allowed). */
export function arrayOf(inner: unknown): Matcher {
  return matcher(`array of ${nameOf(inner)}`, (v) => Array.isArray(v) && v.every((item) => matches(inner, item)));
}

/** Checks every item of a non-empty list against a shape, with jest's diff on the first mismatch. */
export function expectEach(items: unknown, shape: object): void {
  expect(Array.isArray(items)).toBe(true);
  const list = items as unknown[];
  expect(list.length).toBeGreaterThan(0);
  for (const item of list) expect(item).toMatchObject(shape);
}
