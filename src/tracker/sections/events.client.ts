import { TrackerHttp } from '../http/tracker-http';
import { StatusResponse } from '../types/common.types';
import {
  EventBulkSendItem,
  EventDefinitionInput,
  EventLogRequest,
  EventLogResponse,
  EventSendRequest,
  EventsAddResponse,
  EventsArchiveResponse,
} from '../types/events.types';

/** Custom events: definitions, triggers, trigger log. */
export class EventsClient {
  constructor(private readonly http: TrackerHttp) {}

  /** POST /project/events/add */
  add(events: EventDefinitionInput[]): Promise<EventsAddResponse> {
    return this.http.call('eventsAdd', { body: events });
  }

  /** POST /project/events/meta/{eventId}/archive (the spec gives it a body of definitions). */
  archive(eventId: number, events: EventDefinitionInput[] = []): Promise<EventsArchiveResponse> {
    return this.http.call('eventsArchive', { pathParams: { eventId }, body: events });
  }

  /** GET /project/events/log: the spec sends the filter as a body even on GET. */
  log(req: EventLogRequest = {}): Promise<EventLogResponse> {
    return this.http.call('eventsLog', { body: req });
  }

  /** POST /project/events/send */
  send(req: EventSendRequest): Promise<StatusResponse> {
    return this.http.call('eventsSend', { body: req });
  }

  /** POST /project/events/bulk/send */
  bulkSend(items: EventBulkSendItem[]): Promise<StatusResponse> {
    return this.http.call('eventsBulkSend', { body: items });
  }
}
