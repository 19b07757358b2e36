import { noticeText } from '../alert-notice';
import type { AlertChannel } from './channel';
import { postJson } from './http-post';

/** A Slack incoming webhook: `{ text }`. */
export const slackChannel: AlertChannel = async (alert, notice, options) => {
  await postJson(alert.url!, { text: noticeText(notice) }, options.timeoutMs);
};
