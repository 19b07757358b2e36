import { TrackerHttp } from '../http/tracker-http';
import { StatusResponse } from '../types/common.types';
import {
  SpeechCallAddRequest,
  SpeechCallListRequest,
  SpeechCallListResponse,
  SpeechDictionaryCreateRequest,
  SpeechDictionaryListResponse,
  SpeechDictionaryUpdateRequest,
  SpeechPhraseListResponse,
} from '../types/speech.types';

/** Speech analytics: call recordings, dictionaries, transcribed calls. */
export class SpeechClient {
  constructor(private readonly http: TrackerHttp) {}

  /** POST /project/speech/call/add */
  addCall(req: SpeechCallAddRequest): Promise<StatusResponse> {
    return this.http.call('speechCallAdd', { body: req });
  }

  /** POST /project/speech/dictionary/list */
  listDictionaries(): Promise<SpeechDictionaryListResponse> {
    return this.http.call('speechDictionaryList', { body: {} });
  }

  /** POST /project/speech/dictionary/custom/phrase/list */
  listPhrases(id: string | number): Promise<SpeechPhraseListResponse> {
    return this.http.call('speechPhraseList', { body: { id } });
  }

  /** POST /project/speech/dictionary/custom/create (answers all dictionaries). */
  createDictionary(req: SpeechDictionaryCreateRequest): Promise<SpeechDictionaryListResponse> {
    return this.http.call('speechDictionaryCreate', { body: req });
  }

  /** POST /project/speech/dictionary/custom/update */
  updateDictionary(req: SpeechDictionaryUpdateRequest): Promise<StatusResponse> {
    return this.http.call('speechDictionaryUpdate', { body: req });
  }

  /** POST /project/speech/dictionary/custom/delete */
  deleteDictionary(id: string | number): Promise<StatusResponse> {
    return this.http.call('speechDictionaryDelete', { body: { id } });
  }

  /** POST /project/speech/call/list */
  listCalls(req: SpeechCallListRequest = {}): Promise<SpeechCallListResponse> {
    return this.http.call('speechCallList', { body: req });
  }
}
