import type { CustomEvent } from 'tracker-sync/connector';
import type { CellReader } from './cell-reader';
import type { RowMapper } from './row-mapper';

/**
 * events: id (optional: the row's fingerprint, stable while the row is unchanged), name, visit_id, and data:
 * a `data` column holding a JSON object, merged with every other column by its header.
 */
export function eventMapper(r: CellReader): RowMapper<CustomEvent> {
  const c = { id: r.col('id'), name: r.col('name'), visit: r.col('visit_id'), data: r.col('data') };
  const { extraColumns, extraNames } = r.layout;
  return (rowHash) => {
    const name = r.required(c.name, 'name');
    const id = r.id(c.id, 'id');
    const visit = r.id(c.visit, 'visit_id');
    const data: Record<string, unknown> = { ...jsonObject(r, c.data) };
    for (let i = 0; i < extraColumns.length; i++) {
      const value = r.text(extraColumns[i]);
      if (value !== null) data[extraNames[i]] = value;
    }
    if (r.failed) return null;
    return {
      id: id ?? rowHash,
      name: name!,
      visit_id: visit,
      data: Object.keys(data).length > 0 ? data : null,
    };
  };
}

function jsonObject(r: CellReader, col: number): Record<string, unknown> | null {
  const text = r.text(col);
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  r.fail('data', `${r.quoted(col)} is not a JSON object`);
  return null;
}
