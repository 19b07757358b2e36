import { Injectable } from '@nestjs/common';
import { badRequest } from '../../errors/sandbox-error';
import { SandboxDocumentStore, StoredDocument } from '../../storage/document-store';
import { FieldReader } from '../common/field-reader';
import { matchesAll, pageOf, readObjectFilters, readPaging, readPeriod, readSort, sortRecords, withinPeriod } from '../common/record-query';
import { UTC_OFFSET, formatUtcTimestamp } from '../common/service-time';
import { emptyStatistics } from './speech-statistics';
import { SPEECH_CALL_KIND, SpeechCallDoc } from './speech.types';

const AUDIO_URL = /^https?:\/\/\S+$/i;
/** Roots a call list filter may name (`fields.<name>` reaches a custom call parameter). */
const FILTER_ROOTS = [
  'id', 'date', 'callee', 'caller', 'duration', 'answer_duration', 'waiting_time', 'link', 'operator', 'comment',
  'order_id', 'visit_id', 'marker', 'is_outcoming', 'is_swapped', 'speech_statistics', 'matched_dictionaries', 'fields',
];

/** Uploaded call recordings and the call list. */
@Injectable()
export class SpeechCallsService {
  constructor(private readonly store: SandboxDocumentStore) {}

  /**
   * Rules: `date` (UTC+0), `callee`, `caller`, `file_url` are required; `marker` and `visit_id`
   * are mutually exclusive (one may be given, the other stays null). The recording is not
   * fetched (the sandbox is offline): the call is stored with an empty transcription.
   */
  async add(project: number, body: unknown): Promise<string> {
    const reader = FieldReader.ofBody(body);
    const date = reader.requiredTimestamp('date', UTC_OFFSET);
    const callee = reader.requiredString('callee');
    const caller = reader.requiredString('caller');
    const fileUrl = reader.requiredString('file_url');
    if (!AUDIO_URL.test(fileUrl)) throw badRequest('file_url', `file_url: must be an http(s) link to the recording, got "${fileUrl}"`);
    const visitId = reader.has('visit_id') && reader.raw('visit_id') !== null ? reader.requiredInteger('visit_id') : null;
    const marker = reader.has('marker') && reader.raw('marker') !== null ? reader.requiredInteger('marker') : null;
    if (visitId !== null && marker !== null) {
      throw badRequest('marker', 'marker: marker and visit_id are mutually exclusive; give one and leave the other null');
    }
    const doc: SpeechCallDoc = {
      date: formatUtcTimestamp(date), callee, caller, file_url: fileUrl, link: fileUrl,
      operator: reader.nullableString('operator') ?? null,
      comment: reader.nullableString('comment') ?? null,
      is_swapped: reader.optionalFlag('is_swapped') ?? 0,
      is_outcoming: reader.optionalFlag('is_outcoming') ?? 0,
      order_id: reader.nullableString('order_id') ?? null,
      visit_id: visitId === null ? null : String(visitId),
      marker,
      fields: readCustomFields(reader),
      duration: 0, answer_duration: 0, waiting_time: 0, call_status: 'ANSWER',
      speech_statistics: emptyStatistics(),
      matched_dictionaries: { client_dictionary_ids: [], operator_dictionary_ids: [] },
      transcriptions: [],
    };
    return (await this.store.insert(project, SPEECH_CALL_KIND, doc)).id;
  }

  /**
   * `period` {from, to} on the call date; `filters` of {field, operator, value}
   * (`matched_dictionaries.operator_dictionary_ids` with `contains_all`); `sort` [field, direction]
   * (default: newest first); `limit`, `offset`.
   */
  async list(project: number, body: unknown): Promise<Record<string, unknown>[]> {
    const reader = FieldReader.ofListBody(body);
    const period = reader.has('period') ? readPeriod(reader) : null;
    const filters = readObjectFilters(reader, 'filters');
    for (const [index, filter] of filters.entries()) {
      if (!FILTER_ROOTS.includes(filter.field.split('.')[0])) {
        throw badRequest(`filters[${index}].field`, `filters[${index}].field: "${filter.field}" cannot be filtered; filterable: ${FILTER_ROOTS.join(', ')}`);
      }
    }
    const sort = readSort(reader, 'sort') ?? { field: 'date', direction: 'desc' as const };
    const paging = readPaging(reader);
    const calls = await this.store.list<SpeechCallDoc>(project, SPEECH_CALL_KIND);
    const selected = calls
      .filter((call) => !period || withinPeriod(call.date, period))
      .filter((call) => matchesAll(filterView(call), filters));
    return pageOf(sortRecords(selected, sort.field, sort.direction), paging).map(toSpeechCall);
  }
}

function readCustomFields(reader: FieldReader): SpeechCallDoc['fields'] {
  if (!reader.has('fields')) return [];
  return reader.objectItems('fields').map((field) => ({
    title: field.nullableString('title') ?? '', name: field.requiredString('name'), value: field.nullableString('value') ?? '',
  }));
}

/** What filters see: the stored call with custom parameters as `fields.<name>`. */
function filterView(call: StoredDocument<SpeechCallDoc>): Record<string, unknown> {
  return { ...call, fields: Object.fromEntries(call.fields.map((field) => [field.name, field.value])) };
}

/** Item of the speech call list (Resources: "Speech call"). */
export function toSpeechCall(call: StoredDocument<SpeechCallDoc>): Record<string, unknown> {
  return {
    id: call.id, date: call.date, callee: call.callee, caller: call.caller,
    duration: call.duration, answer_duration: call.answer_duration, waiting_time: call.waiting_time,
    link: call.link, speech_statistics: call.speech_statistics,
    matched_dictionaries: call.matched_dictionaries, transcriptions: call.transcriptions,
  };
}
