import type { AlertEvent } from '../config/alert-config';

/** What one alert message says. The webhook posts exactly these keys; the other channels send `message` as text. */
export interface AlertNotice {
  /** an event, or `test` for POST /api/alerts/{id}/test */
  event: AlertEvent | 'test';
  /** null for a test message */
  connection: string | null;
  run_id: number | null;
  /** one line a person reads; never a secret */
  message: string;
  /** the run's counters (records and the service's add-orders counters); null when the alert is not about one run */
  counters: Record<string, number> | null;
  /** the daemon's status page */
  status_url: string;
  /** ISO-8601 UTC */
  at: string;
  /** the project (its name in the config) the connection feeds: kept with the delivery (GET /api/alerts), not posted */
  project?: string | null;
}

/** The text of chat and e-mail messages: the message, then where to look. */
export function noticeText(notice: AlertNotice): string {
  return `[tracker-sync] ${notice.message}\n${notice.status_url}`;
}

export function noticeSubject(notice: AlertNotice): string {
  const first = notice.message.split('\n')[0];
  return `[tracker-sync] ${first.length > 140 ? `${first.slice(0, 137)}...` : first}`;
}
