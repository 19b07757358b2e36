import type { AlertChannel } from './channel';
import { postJson } from './http-post';

/** POSTs the notice as JSON: { event, connection, run_id, message, counters, status_url, at }. */
export const webhookChannel: AlertChannel = async (alert, notice, options) => {
  const { event, connection, run_id, message, counters, status_url, at } = notice;
  await postJson(alert.url!, { event, connection, run_id, message, counters, status_url, at }, options.timeoutMs);
};
