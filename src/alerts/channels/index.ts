import type { AlertType } from '../../config/alert-config';
import type { AlertChannel } from './channel';
import { emailChannel } from './email.channel';
import { slackChannel } from './slack.channel';
import { telegramChannel } from './telegram.channel';
import { webhookChannel } from './webhook.channel';

export * from './channel';

export const ALERT_CHANNELS: Record<AlertType, AlertChannel> = {
  webhook: webhookChannel,
  slack: slackChannel,
  telegram: telegramChannel,
  email: emailChannel,
};
