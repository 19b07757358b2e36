/**
 * Values from `${NAME}` expansion and environment overrides arrive as strings ("3000", "true").
 * These transforms convert only what is unambiguous and leave anything else untouched, so the
 * validator can quote the original value back to the user ("abc" must be an integer).
 */
import { Transform } from 'class-transformer';

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
const TRUE = ['true', 'yes', 'on', '1'];
const FALSE = ['false', 'no', 'off', '0'];

export function ToNumber(): PropertyDecorator {
  return Transform(({ value }) => (typeof value === 'string' && NUMBER.test(value.trim()) ? Number(value) : value));
}

export function ToBoolean(): PropertyDecorator {
  return Transform(({ value }) => {
    if (typeof value !== 'string') return value;
    const word = value.trim().toLowerCase();
    return TRUE.includes(word) ? true : FALSE.includes(word) ? false : value;
  });
}

/** Ids and keys sometimes look like numbers in YAML (`project: 123`): keep them as text. */
export function ToText(): PropertyDecorator {
  return Transform(({ value }) => (typeof value === 'number' ? String(value) : value));
}

/** `LOG_LEVEL=INFO` means info. */
export function ToLowerCase(): PropertyDecorator {
  return Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value));
}

/** `budget: false` reads as naturally as `budget: off`. */
export function ToOnOff(): PropertyDecorator {
  return Transform(({ value }) => (value === true ? 'on' : value === false ? 'off' : value));
}

/** `base_url: ""` means the same as no base_url (the embedded sandbox). */
export function EmptyAsAbsent(): PropertyDecorator {
  return Transform(({ value }) => (typeof value === 'string' && value.trim() === '' ? undefined : value));
}
