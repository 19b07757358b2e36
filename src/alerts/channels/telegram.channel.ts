import { noticeText } from '../alert-notice';
import { AlertChannel, DeliveryError } from './channel';
import { postJson } from './http-post';

export const TELEGRAM_API_URL = 'https://api.telegram.org';

/** The Bot API's sendMessage; it answers `{ ok: true }` (or `ok: false` with a description). */
export const telegramChannel: AlertChannel = async (alert, notice, options) => {
  const base = (alert.api_url ?? TELEGRAM_API_URL).replace(/\/+$/, '');
  const answer = (await postJson(
    `${base}/bot${alert.bot_token}/sendMessage`,
    { chat_id: alert.chat_id, text: noticeText(notice), disable_web_page_preview: true },
    options.timeoutMs,
  )) as { ok?: boolean; description?: string } | undefined;
  if (answer && answer.ok === false) throw new DeliveryError(`Telegram: ${answer.description ?? 'not sent'}`, false);
};
