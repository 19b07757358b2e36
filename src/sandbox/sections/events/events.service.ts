import { Injectable } from '@nestjs/common';
import { badRequest, notFound } from '../../errors/sandbox-error';
import { SandboxDocumentStore, StoredDocument } from '../../storage/document-store';
import { FieldReader } from '../common/field-reader';
import { SERVICE_LOCAL_OFFSET, formatUtcTimestamp, parsePlainDate, parseTimestamp } from '../common/service-time';
import { EVENT_KIND, EVENT_LOG_KIND, EVENT_TYPES, EventDefinitionDoc, EventLogDoc } from './event.types';

export type EventDefinition = Pick<StoredDocument<EventDefinitionDoc>, 'id' | 'display_name' | 'type' | 'parameter'>;
type Trigger = Omit<EventLogDoc, 'event_date'>;

/** Custom events: define, archive, send (single and bulk), read the trigger log. */
@Injectable()
export class EventsService {
  constructor(private readonly store: SandboxDocumentStore) {}

  /**
   * Each item needs `display_name`, `type` (js or url) and `parameter`. A name already taken by a
   * defined (not archived) event is a 400: `send` finds events by name, so names stay unambiguous.
   */
  async add(project: number, body: unknown): Promise<EventDefinition[]> {
    const items = FieldReader.ofArrayBody(body).map((item) => ({
      display_name: item.requiredString('display_name'), type: item.requiredEnum('type', EVENT_TYPES),
      parameter: item.requiredString('parameter'), is_archived: 0 as const,
    }));
    const taken = new Set((await this.active(project)).map((event) => event.display_name));
    items.forEach((item, index) => {
      if (taken.has(item.display_name)) {
        throw badRequest(`[${index}].display_name`, `[${index}].display_name: an event named "${item.display_name}" is already defined`);
      }
      taken.add(item.display_name);
    });
    const created: EventDefinition[] = [];
    for (const item of items) created.push(toDefinition(await this.store.insert(project, EVENT_KIND, item)));
    return created;
  }

  /** defined → archived; archiving an archived event again changes nothing. Answers the defined events. */
  async archive(project: number, eventId: string): Promise<EventDefinition[]> {
    if (!/^\d+$/.test(eventId)) throw badRequest('eventId', `eventId: must be an integer event id, got "${eventId}"`);
    const updated = await this.store.update<EventDefinitionDoc>(project, EVENT_KIND, eventId, { is_archived: 1 });
    if (!updated) throw notFound(`event ${eventId}`);
    return (await this.active(project)).map(toDefinition);
  }

  /** `name` must name a defined, not archived event (by display name, else by parameter). */
  async send(project: number, body: unknown): Promise<void> {
    const trigger = await this.readTrigger(project, FieldReader.ofBody(body));
    await this.store.insert(project, EVENT_LOG_KIND, { ...trigger, event_date: formatUtcTimestamp(new Date()) });
  }

  /**
   * The specification makes every field optional here, and the service accepts a trigger whose `name` is no defined
   * event and counts it nowhere (the n8n community node, actions/event/execute.ts): such items are accepted and not
   * logged. Structural errors (a non-object item, a non-string name) still reject the whole batch before anything is
   * written. Answers how many triggers were logged.
   */
  async bulkSend(project: number, body: unknown): Promise<number> {
    const triggers: Trigger[] = [];
    for (const item of FieldReader.ofArrayBody(body)) {
      const name = item.optionalString('name');
      const trigger = name ? await this.findTrigger(project, item, name) : null;
      if (trigger) triggers.push(trigger);
    }
    const eventDate = formatUtcTimestamp(new Date());
    for (const trigger of triggers) await this.store.insert(project, EVENT_LOG_KIND, { ...trigger, event_date: eventDate });
    return triggers.length;
  }

  /** Optional `name`, `date_from`, `date_to` (a plain day as `date_to` includes that day). Oldest first. */
  async log(project: number, query: Record<string, unknown>): Promise<Omit<StoredDocument<EventLogDoc>, 'event_id'>[]> {
    const reader = FieldReader.ofBody(query);
    const name = reader.optionalString('name');
    const from = readBound(reader, 'date_from', false);
    const to = readBound(reader, 'date_to', true);
    const entries = await this.store.list<EventLogDoc>(project, EVENT_LOG_KIND, (entry) => {
      const date = parseTimestamp(entry.event_date) as Date;
      return (!name || entry.display_name === name) && (!from || date >= from) && (!to || date <= to);
    });
    return entries.map(({ id, display_name, parameter, type, event_date, data, visit_id }) =>
      ({ id, display_name, parameter, type, event_date, data, visit_id }));
  }

  /** `send`: the name must be that of a defined, not archived event (400 otherwise). */
  private async readTrigger(project: number, reader: FieldReader): Promise<Trigger> {
    const name = reader.requiredString('name');
    const trigger = await this.findTrigger(project, reader, name);
    if (!trigger) {
      const events = await this.store.list<EventDefinitionDoc>(project, EVENT_KIND);
      const archived = events.some((e) => e.display_name === name || e.parameter === name);
      const why = archived ? 'is archived' : 'is not defined (define it with events/add)';
      throw badRequest(reader.path('name'), `${reader.path('name')}: event "${name}" ${why}`);
    }
    return trigger;
  }

  /** The trigger of the defined, not archived event called `name` (by display name, else by parameter); null if none. */
  private async findTrigger(project: number, reader: FieldReader, name: string): Promise<Trigger | null> {
    const visit = reader.nullableString('visit') ?? null;
    const data = reader.optionalRawObject('data') ?? null;
    const events = await this.store.list<EventDefinitionDoc>(project, EVENT_KIND);
    const event = events.find((e) => e.display_name === name && !e.is_archived)
      ?? events.find((e) => e.parameter === name && !e.is_archived);
    if (!event) return null;
    return {
      display_name: event.display_name, parameter: event.parameter, type: event.type,
      data, visit_id: visit === '' ? null : visit, event_id: event.id,
    };
  }

  private active(project: number): Promise<StoredDocument<EventDefinitionDoc>[]> {
    return this.store.list<EventDefinitionDoc>(project, EVENT_KIND, (event) => !event.is_archived);
  }
}

function toDefinition({ id, display_name, type, parameter }: StoredDocument<EventDefinitionDoc>): EventDefinition {
  return { id, display_name, type, parameter };
}

function readBound(reader: FieldReader, name: string, endOfDay: boolean): Date | undefined {
  const date = reader.optionalTimestamp(name, SERVICE_LOCAL_OFFSET);
  if (!date || !endOfDay || !parsePlainDate(String(reader.raw(name)))) return date;
  return new Date(date.getTime() + 86_399_999);
}
