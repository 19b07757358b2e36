import { ObjectFilters } from '../filters';
import { Paging, Period, SortPair, StatusResponse } from './common.types';

export interface SpeechCallAddRequest {
  /** Record creation time, UTC+0. */
  date: string;
  callee: string;
  caller: string;
  /** MP3 (WAV, OGG accepted); copied and stored by the service. */
  file_url: string;
  operator?: string;
  comment?: string;
  /** 0 operator on the right track, 1 on the left. */
  is_swapped?: 0 | 1;
  /** 0 incoming (default), 1 outgoing. */
  is_outcoming?: 0 | 1;
  order_id?: string;
  /** Mutually exclusive with `marker`. */
  visit_id?: number | null;
  marker?: number | null;
  fields?: Array<{ title: string; name: string; value: string }>;
}

export interface SpeechDictionary {
  /** System dictionaries have ids 'system_N'. */
  id: string;
  name: string;
  color: string;
  is_system: 0 | 1;
  is_problem: 0 | 1;
  is_for_operator: 0 | 1;
  is_for_client: 0 | 1;
}

export interface SpeechDictionaryListResponse extends StatusResponse {
  data: SpeechDictionary[];
  total: number;
}

export interface SpeechPhraseListResponse extends StatusResponse {
  data: { dictionary_id: number; phrases: string[] };
}

export interface SpeechDictionaryCreateRequest {
  name: string;
  is_problem: boolean;
  is_for_operator: boolean;
  is_for_client: boolean;
  color: string;
  phrases: string[];
}

export interface SpeechDictionaryUpdateRequest extends Partial<SpeechDictionaryCreateRequest> {
  id: string | number;
}

export interface SpeechStatistics {
  silence_percent: number;
  silence_max_duration: number;
  pause_client_percent: number;
  pause_operator_percent: number;
  pause_client_count_per_minute: number;
  pause_operator_count_per_minute: number;
  interrupt_client_count: number;
  interrupt_operator_count: number;
  interrupt_total_count: number;
  interrupt_client_count_per_minute: number;
  interrupt_operator_count_per_minute: number;
  interrupt_total_count_per_minute: number;
  interrupt_client_percent: number;
  interrupt_operator_percent: number;
  interrupt_total_percent: number;
  speech_client_max_duration: number;
  speech_operator_max_duration: number;
  speech_client_percent: number;
  speech_operator_percent: number;
  speech_client_speed: number;
  speech_operator_speed: number;
  /** 'N/M' */
  speech_operator_to_client_ratio: string;
}

export interface SpeechTranscription {
  id: number;
  is_client: 0 | 1;
  text: string;
  time: number;
  dictionary_matches: Array<{ id: string; name: string; word: string }>;
  last_text_edit_date: string | null;
}

export interface SpeechCall {
  id: string;
  date: string;
  callee: string;
  caller: string;
  duration: number;
  answer_duration: number;
  waiting_time: number;
  link: string | null;
  speech_statistics: SpeechStatistics;
  matched_dictionaries: { client_dictionary_ids: string[]; operator_dictionary_ids: string[] };
  transcriptions: SpeechTranscription[];
}

/** `matched_dictionaries.operator_dictionary_ids` takes `contains_all` with an array of ids. */
export interface SpeechCallListRequest extends Paging {
  period?: Period;
  sort?: SortPair;
  filters?: ObjectFilters;
}

/** Only `data` is shown in the spec. */
export interface SpeechCallListResponse {
  data: SpeechCall[];
  status?: 'success';
  total?: number;
}
