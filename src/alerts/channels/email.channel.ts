import { createTransport } from 'nodemailer';
import { noticeSubject, noticeText } from '../alert-notice';
import { AlertChannel, DeliveryError } from './channel';

/** Through the SMTP server of `url` (smtp://user:password@host:587, smtps:// for TLS from the start). */
export const emailChannel: AlertChannel = async (alert, notice, options) => {
  const transport = createTransport(alert.url!, {
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
  } as object);
  try {
    await transport.sendMail({ from: alert.from, to: alert.to, subject: noticeSubject(notice), text: noticeText(notice) });
  } catch (error) {
    const e = error as Error & { responseCode?: number; code?: string };
    // a 5xx answer (recipient refused, authentication failed) stays refused; a dropped connection may pass later
    const permanent = typeof e.responseCode === 'number' && e.responseCode >= 500;
    throw new DeliveryError(`SMTP: ${e.code ? `${e.code} ` : ''}${e.message}`, !permanent);
  } finally {
    transport.close();
  }
};
