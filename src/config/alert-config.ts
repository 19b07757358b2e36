/**
 * The `alerts:` section: where the daemon reports a broken sync (a failed run, no success for a while, or data
 * that flows but has gone bad). Checked like the rest of the file; rules spanning keys are in `alertProblems`.
 */
import { Transform } from 'class-transformer';
import { IsOptional } from 'class-validator';
import { Doc } from './config-doc';
import { EmptyAsAbsent, ToLowerCase, ToNumber, ToText } from './config-transforms';
import { DEFAULT_PROJECT } from './project-targets';
import { isMapping, Matches, NumberRange, OneOf, Text, TextList, UrlWithProtocol } from './config-validators';

export const ALERT_TYPES = ['webhook', 'slack', 'telegram', 'email'] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

export const ALERT_EVENTS = ['run_failed', 'recovered', 'no_success_for', 'without_visit_share', 'rejected_share', 'skipped_share'] as const;
export type AlertEvent = (typeof ALERT_EVENTS)[number];

/** `90s`, `15m`, `6h`, `2d` (a whole or decimal number and one unit). */
export const DURATION = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/i;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function durationMs(text: string): number {
  const match = DURATION.exec(text);
  if (!match) throw new Error(`"${text}" is not a duration (e.g. 90s, 15m, 6h, 2d)`);
  return Math.round(Number(match[1]) * UNIT_MS[match[2].toLowerCase()]);
}

const ALERT_ID = /^[a-z0-9][a-z0-9_-]*$/i;
const DURATION_MESSAGE = 'must be a duration such as 90s, 15m, 6h or 2d';

/** `to: ops@example.com` reads as naturally as a list of one. */
function toList(value: unknown): unknown {
  return typeof value === 'string' ? [value] : value;
}

export class AlertConfig {
  @Doc('Unique name of the alert (letters, digits, "-", "_"); POST /api/alerts/{id}/test sends it a test message.', { type: 'string' })
  @Matches(ALERT_ID, 'must start with a letter or digit and contain only letters, digits, "-" and "_"')
  id: string;

  @Doc('Where it is sent.', { type: '"webhook" | "slack" | "telegram" | "email"' })
  @ToLowerCase() @OneOf(ALERT_TYPES)
  type: AlertType;

  @Doc('webhook: the URL that gets the JSON; slack: the incoming-webhook URL; email: the SMTP server (smtp:// or smtps://, with user:password). Secret.', {
    type: 'URL (secret)',
  })
  @IsOptional() @EmptyAsAbsent() @UrlWithProtocol(['http', 'https', 'smtp', 'smtps'])
  url?: string;

  @Doc('telegram: the bot token. Secret.', { type: 'string (secret)' })
  @IsOptional() @EmptyAsAbsent() @ToText() @Text()
  bot_token?: string;

  @Doc('telegram: the chat the bot writes to.', { type: 'string' })
  @IsOptional() @EmptyAsAbsent() @ToText() @Text()
  chat_id?: string;

  @Doc('telegram: the Bot API address (for a proxy or a test double).', { type: 'http(s) URL' })
  @IsOptional() @EmptyAsAbsent() @UrlWithProtocol(['http', 'https'])
  api_url?: string;

  @Doc('email: the sender address.', { type: 'string' })
  @IsOptional() @EmptyAsAbsent() @Text()
  from?: string;

  @Doc('email: the recipients.', { type: 'list of strings' })
  @IsOptional() @Transform(({ value }) => toList(value)) @TextList()
  to?: string[];

  @Doc('The connections it watches, by id; "*" = all.', { type: 'list of strings' })
  @Transform(({ value }) => toList(value)) @TextList()
  connections: string[] = ['*'];

  @Doc('The projects it watches, by name (`default` = the tracker: project): only their connections (with `connections`, both must match); absent = every project.', {
    type: 'list of strings',
  })
  @IsOptional() @Transform(({ value }) => toList(value)) @TextList()
  projects?: string[];

  @Doc('The events it reports.', { type: 'list of events' })
  @Transform(({ value }) => toList(value)) @TextList()
  events: AlertEvent[] = [...ALERT_EVENTS];

  @Doc('no_success_for: a scheduled connection without a successful run for this long (downtime counts).', { type: 'duration' })
  @Matches(DURATION, DURATION_MESSAGE)
  no_success_for = '24h';

  @Doc("without_visit_share: a run's share of deals sent without a visit number at or above this (a broken site form).", {
    type: 'number 0..1',
  })
  @ToNumber() @NumberRange(0, 1)
  without_visit_share = 0.5;

  @Doc("rejected_share: a run's share of records read that were rejected at or above this.", { type: 'number 0..1' })
  @ToNumber() @NumberRange(0, 1)
  rejected_share = 0.05;

  @Doc("skipped_share: a run's share of sent deals the service skipped (by status, waiting visit, internal error) at or above this.", {
    type: 'number 0..1',
  })
  @ToNumber() @NumberRange(0, 1)
  skipped_share = 0.2;

  @Doc('A reminder while a condition lasts, this often; then one `recovered`.', { type: 'duration' })
  @Matches(DURATION, DURATION_MESSAGE)
  repeat = '24h';
}

/** What each type needs, unknown events, connections and projects, duplicate ids: each named by its path. */
export function alertProblems(alerts: unknown, connectionIds: readonly string[], projectNames: readonly string[] = [DEFAULT_PROJECT]): string[] {
  if (!Array.isArray(alerts)) return [];
  const problems: string[] = [];
  const firstIndex = new Map<string, number>();
  const known = new Set(connectionIds.map((id) => id.toLowerCase()));
  alerts.forEach((alert, index) => {
    if (!isMapping(alert)) return;
    const path = `alerts[${index}]`;
    const a = alert as Partial<AlertConfig>;
    if (typeof a.id === 'string') {
      const first = firstIndex.get(a.id.toLowerCase());
      if (first === undefined) firstIndex.set(a.id.toLowerCase(), index);
      else problems.push(`${path}.id: ${JSON.stringify(a.id)} is already the id of alerts[${first}]`);
    }
    const need = (key: keyof AlertConfig, why: string) => {
      if (a[key] === undefined) problems.push(`${path}.${key}: is required for type ${why}`);
    };
    const url = typeof a.url === 'string' ? a.url : undefined;
    if (a.type === 'webhook' || a.type === 'slack') {
      need('url', a.type);
      if (url && !/^https?:/i.test(url)) problems.push(`${path}.url: must be an http:// or https:// URL for type ${a.type}`);
    }
    if (a.type === 'telegram') {
      need('bot_token', 'telegram');
      need('chat_id', 'telegram');
    }
    if (a.type === 'email') {
      need('url', 'email (the SMTP server, smtp://user:password@host:587)');
      need('from', 'email');
      need('to', 'email');
      if (url && !/^smtps?:/i.test(url)) problems.push(`${path}.url: must be an smtp:// or smtps:// URL for type email`);
    }
    if (Array.isArray(a.events)) {
      a.events.forEach((event, i) => {
        if (!(ALERT_EVENTS as readonly string[]).includes(event)) {
          problems.push(`${path}.events[${i}]: ${JSON.stringify(event)} must be one of ${ALERT_EVENTS.map((e) => JSON.stringify(e)).join(', ')}`);
        }
      });
    }
    if (Array.isArray(a.connections)) {
      a.connections.forEach((id, i) => {
        if (typeof id === 'string' && id !== '*' && !known.has(id.toLowerCase())) {
          problems.push(`${path}.connections[${i}]: ${JSON.stringify(id)} is not the id of a connection (or "*" for all)`);
        }
      });
    }
    if (Array.isArray(a.projects)) {
      a.projects.forEach((name, i) => {
        if (typeof name === 'string' && !projectNames.includes(name)) {
          problems.push(`${path}.projects[${i}]: ${JSON.stringify(name)} is not a project (one of ${projectNames.map((n) => JSON.stringify(n)).join(', ')})`);
        }
      });
    }
  });
  return problems;
}
