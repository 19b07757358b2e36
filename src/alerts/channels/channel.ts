import type { AlertConfig } from '../../config/alert-config';
import type { AlertNotice } from '../alert-notice';

/** One way out: sends a notice to an alert's channel, or throws a DeliveryError. */
export type AlertChannel = (alert: AlertConfig, notice: AlertNotice, options: ChannelOptions) => Promise<void>;

export interface ChannelOptions {
  /** one attempt's timeout */
  timeoutMs: number;
}

/** A failed attempt; `retryable` false when another attempt cannot help (a 4xx, a refused recipient). */
export class DeliveryError extends Error {
  constructor(message: string, readonly retryable: boolean) {
    super(message);
    this.name = 'DeliveryError';
  }
}
