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

/** The service takes prices as strings; a number that would print in exponent form or is not finite is refused. */
export function moneyText(value: number | null | undefined, field: string, allowNegative = false): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new MappingError(field, `${String(value)} is not a finite number`);
  if (!allowNegative && value < 0) throw new MappingError(field, `${value} is negative`);
  if (Math.abs(value) >= 1e15) throw new MappingError(field, `${value} is too large`);
  return String(value);
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
