/** A declarative source without a preset, for the paginator / requester tests: one `deals` stream. */

export const item = (id: number) => ({ id, created: '2024-01-01T00:00:00Z' });
export const items = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => item(from + i));

export function customSettings(baseUrl: string, deals: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return {
    base_url: baseUrl,
    rate_limit: { requests: 1000, per_seconds: 1 },
    retry: { base_ms: 5, max_attempts: 3 },
    streams: {
      deals: { request: { path: '/deals' }, records: 'items', mapping: { id: 'id', created_at: 'created' }, ...deals },
    },
    ...extra,
  };
}
