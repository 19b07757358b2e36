/** Document kinds and stored shapes of custom events (Resources: "Tracked event and trigger log entry"). */
import type { EventDefinitionInput, EventLogEntry, EventType } from '../../../tracker/types/events.types';

export type { EventType };

export const EVENT_KIND = 'event_definition';
/** Also read by the client feed (items of type `event`). */
export const EVENT_LOG_KIND = 'event_log';

export const EVENT_TYPES = ['js', 'url'] as const satisfies readonly EventType[];

export interface EventDefinitionDoc extends EventDefinitionInput {
  /** defined → archived (state table "Tracked event"); archived events take no triggers. */
  is_archived: 0 | 1;
}

export interface EventLogDoc extends Omit<EventLogEntry, 'id'> {
  /** id of the event definition (for the feed's `metaId`) */
  event_id: string;
}
