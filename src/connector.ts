/**
 * The connector contract (the SDK), as plugins and the built-in connectors import it: `import { defineConnector, Deal } from 'tracker-sync/connector'`.
 * The plugin loader maps that name to this file wherever the plugin lives (see connectors/plugin-resolution.ts);
 * the type checker maps it through `paths` in tsconfig.json.
 */
export * from './connectors/canonical';
export * from './connectors/connector-definition';
export { multiValues, normalizedList, normalizeEmail, normalizePhone } from './connectors/contact-values';
/** lead delivery's errors (a lead the CRM refused; a create whose outcome is unknown, which any flow's CRM action throws) */
export * from './connectors/lead-delivery';
/**
 * a connector's error that no retry of the run lifts soon (`lasting: true`: refused credentials, a spent daily quota),
 * and how far it reaches (`reach`: its stream alone, or the whole source, which stops the run)
 */
export { failureReach, isLastingError } from './connectors/lasting-failure';
export type { FailureReach } from './connectors/lasting-failure';
/** the retry policy the daemon's own clients use: which answers to retry, backoff, Retry-After, an abortable sleep, the marks of a spent daily quota */
export { backoffDelayMs, dailyQuotaMark, isDailyQuotaSpent, isRetryableStatus, parseResetAtMs, parseRetryAfterMs, sleep } from './http/retry-policy';
export type { Backoff, DailyQuotaMark, QuotaAnswer } from './http/retry-policy';
/** the spacing of rate-limited requests, with the margin that keeps a CRM's window where requests arrive */
export { FirstRequestGate, Spacer, spacingMs } from './http/rate-spacing';
/** the forms a CRM echoes a secret in (JSON-escaped, percent-encoded): a connector's redactor masks them all, as the daemon's scrubber does */
export { maskSecretForms, secretForms } from './http/secret-forms';
/** the cron check of the scheduler: why a schedule is not usable (undefined when it is) */
export { cronProblem } from './config/cron-expression';
/** the one time-zone module: wall-clock time in an IANA zone to UTC, zone names */
export { isTimeZone, wallTimeToUtc } from './time/time-zone';
/** a calendar date typed by a person ("8 февраля 1992", "08.02.1992", "Feb 8, 1992"), read where the declared format fails */
export { readCalendarText } from './time/calendar-text';
/** the CRM actions capability: named find/create/update/note requests any outbound flow may ask for */
export * from './connectors/crm-actions';
/** a CRM's deal fields as a flow's `deal_fields` action answers them, and a field found by key or label */
export * from './connectors/deal-fields';
/** the webhooks capability: how a CRM's calls are verified and how its webhooks are registered */
export * from './connectors/webhook-capability';
