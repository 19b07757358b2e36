/** A canonical record that cannot become a payload: names the field and the value. */
export class MappingError extends Error {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
    this.name = 'MappingError';
  }
}

/** Below a millionth, String() prints a number in exponent form (1e-7): as money it is a formula's rounding noise. */
const LEAST_MONEY = 1e-6;

/**
 * The service takes prices as strings, in plain decimals: a number too large for them or not finite is refused,
 * and one below a millionth (`=0.1+0.2-0.3` is 5.55e-17) is sent as "0".
 */
export function moneyText(value: number | null | undefined, field: string, allowNegative = false): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new MappingError(field, `${String(value)} is not a finite number`);
  if (!allowNegative && value < 0) throw new MappingError(field, `${value} is negative`);
  if (Math.abs(value) >= 1e15) throw new MappingError(field, `${value} is too large`);
  return Math.abs(value) < LEAST_MONEY ? '0' : String(value);
}

export function finiteNumber(value: number | null | undefined, field: string): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new MappingError(field, `${String(value)} is not a finite number`);
  return value;
}

export function instant(value: Date | null | undefined, field: string, format: (d: Date) => string): string {
  if (!isValidDate(value)) throw new MappingError(field, `${String(value)} is not a valid date`);
  return format(new Date(value.getTime()));
}

/** A Date from any realm (vm contexts, workers, structuredClone in test sandboxes) that holds a time. */
export function isValidDate(value: unknown): value is Date {
  return Object.prototype.toString.call(value) === '[object Date]' && !Number.isNaN((value as Date).getTime());
}
