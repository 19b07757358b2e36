/** Instants in the store: ISO-8601 UTC strings, which sort as text on every database. */
export function isoNow(): string {
  return new Date().toISOString();
}

export function isoAfter(ms: number): string {
  return new Date(Date.now() + ms).toISOString();
}
