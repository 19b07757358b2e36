/** Document kinds and shapes of custom events (Resources: "Tracked event and trigger log entry"). */
export const EVENT_KIND = 'event_definition';
/** Also read by the client feed (items of type `event`). */
export const EVENT_LOG_KIND = 'event_log';

export const EVENT_TYPES = ['js', 'url'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface EventDefinitionDoc {
  display_name: string;
  type: EventType;
  /** event id (js) or link (url) */
  parameter: string;
  /** defined → archived (state table "Tracked event"); archived events take no triggers. */
  is_archived: 0 | 1;
}

export interface EventLogDoc {
  display_name: string;
  parameter: string;
  type: EventType;
  /** `YYYY-MM-DDTHH:MM:SS+0000` */
  event_date: string;
  data: Record<string, unknown> | null;
  visit_id: string | null;
  /** id of the event definition (for the feed's `metaId`) */
  event_id: string;
}
