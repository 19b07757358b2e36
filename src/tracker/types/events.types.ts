import { StatusResponse } from './common.types';

export type EventType = 'js' | 'url';

export interface EventDefinitionInput {
  display_name: string;
  type: EventType;
  /** Event id or link. */
  parameter: string;
}

export interface EventDefinition extends EventDefinitionInput {
  id: string;
}

export interface EventsAddResponse extends StatusResponse {
  events: EventDefinition[];
}

/** The spec calls `events` "a structure of definitions". */
export interface EventsArchiveResponse extends StatusResponse {
  events: EventDefinition[] | Record<string, unknown>;
}

export interface EventLogRequest {
  name?: string;
  date_from?: string;
  date_to?: string;
}

export interface EventLogEntry {
  /** Trigger id. */
  id: string;
  display_name: string;
  parameter: string;
  type: EventType;
  event_date: string;
  data: Record<string, unknown> | null;
  visit_id: string | null;
}

export interface EventLogResponse extends StatusResponse {
  items: EventLogEntry[];
}

export interface EventSendRequest {
  /** Name of a defined event. */
  name: string;
  /** Visit number from the `tracker_visit` cookie. */
  visit?: string;
  data?: Record<string, unknown>;
}

/** In bulk every field is optional. */
export type EventBulkSendItem = Partial<EventSendRequest>;
