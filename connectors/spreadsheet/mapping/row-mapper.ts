import type { CanonicalRecord } from 'tracker-sync/connector';
import type { CellReader } from './cell-reader';

/**
 * Maps the reader's current row to a canonical record, or null when the row failed (the reader holds why).
 * Built once per stream from the layout; `rowHash` lets streams without an id column derive a stable one.
 */
export type RowMapper<T extends CanonicalRecord = CanonicalRecord> = (rowHash: string) => T | null;

export type RowMapperFactory<T extends CanonicalRecord = CanonicalRecord> = (r: CellReader) => RowMapper<T>;

/** A required instant: an empty cell fails the row. */
export function requiredInstant(r: CellReader, col: number, field: string): Date | null {
  const value = r.instant(col, field);
  if (value === null) r.fail(field, col < 0 ? `no ${field} column` : 'is empty');
  return value;
}

/** A required calendar date. */
export function requiredDay(r: CellReader, col: number, field: string): string | null {
  const value = r.day(col, field);
  if (value === null) r.fail(field, col < 0 ? `no ${field} column` : 'is empty');
  return value;
}

/** Several phones or e-mails in one cell, separated by , or ; */
const LIST_SEPARATOR = /[,;]/;
export function splitList(text: string | null): string[] {
  if (text === null) return [];
  const items: string[] = [];
  for (const part of text.split(LIST_SEPARATOR)) {
    const item = part.trim();
    if (item !== '') items.push(item);
  }
  return items;
}
