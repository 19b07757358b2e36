import type { DispatchOptions } from './alert-dispatcher';

/**
 * The alerts' options token, apart from the service: the app provides it in every process, and a CLI process
 * (no alerts) must not load the service's channels (nodemailer) to name it.
 */
export const ALERTS_OPTIONS = Symbol('ALERTS_OPTIONS');

export interface AlertsOptions {
  /** the daemon's status page, put in every alert (default from server.host and server.port) */
  statusUrl?: string;
  checkIntervalMs?: number;
  dispatch?: Partial<DispatchOptions>;
}
