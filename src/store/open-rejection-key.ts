/**
 * The record_key of a rejection. The id names the record, except when the problem is the id itself (field `id`:
 * empty, or a duplicate of another row's id): then the place it was read from does. A row without an id has
 * nothing steadier than its place; if rows above it are added or removed it shows up as a new entry, and the
 * old one leaves on the next complete read.
 */
export function openRejectionKey(r: { external_id: string; field: string; ref: string | null }): string {
  if (r.external_id && r.field !== 'id') return `id:${r.external_id}`;
  if (r.ref) return `ref:${r.ref}`;
  return `id:${r.external_id}`;
}
