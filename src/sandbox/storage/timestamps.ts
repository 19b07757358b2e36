/** Formats a date the way the service answers: `YYYY-MM-DDTHH:MM:SS+0000` (UTC). */
export function serviceTimestamp(date: Date = new Date()): string {
  return date.toISOString().slice(0, 19) + '+0000';
}

/** `YYYY-MM-DD HH:MM:SS` in UTC, the form of project creation dates and proxy leads. */
export function plainTimestamp(date: Date = new Date()): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}
