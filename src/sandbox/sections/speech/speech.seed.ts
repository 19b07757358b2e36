import { StoredDocument } from '../../storage/document-store';
import { SeedContext } from '../common/seed-context';
import { daysAgo, formatUtcTimestamp } from '../common/service-time';
import { statisticsOf } from './speech-statistics';
import { DICTIONARY_KIND, DictionaryDoc, SPEECH_CALL_KIND, SYSTEM_DICTIONARY_PREFIX, SpeechCallDoc, TranscriptionEntry } from './speech.types';
import { matchDictionaries } from './transcript-matcher';

const SYSTEM_DICTIONARIES: DictionaryDoc[] = [
  dictionary('Приветствие', '#2e7d32', 1, 0, 1, 0, ['здравствуйте', 'добрый день']),
  dictionary('Прощание', '#1565c0', 1, 0, 1, 0, ['до свидания', 'всего доброго']),
  dictionary('Недовольство клиента', '#c62828', 1, 1, 0, 1, ['дорого', 'жалоба', 'не устраивает']),
];
const CUSTOM_DICTIONARY = dictionary('Вопросы о цене', 'rgb(255, 152, 0)', 0, 0, 0, 1, ['сколько стоит', 'цена', 'скидка']);

type Line = Omit<TranscriptionEntry, 'dictionary_matches'>;
const line = (id: number, isClient: 0 | 1, time: number, text: string): Line =>
  ({ id, is_client: isClient, time, text, last_text_edit_date: null });

const CONVERSATIONS: Line[][] = [
  [line(1, 0, 0, 'Здравствуйте, магазин слушает'), line(2, 1, 3, 'Добрый день, сколько стоит доставка?'),
    line(3, 0, 7, 'Доставка по городу бесплатная'), line(4, 1, 11, 'Спасибо'), line(5, 0, 13, 'Всего доброго')],
  [line(1, 0, 0, 'Добрый день'), line(2, 1, 2, 'Это дорого, меня не устраивает цена'),
    line(3, 0, 6, 'Могу предложить скидку'), line(4, 0, 10, 'До свидания')],
  [line(1, 0, 0, 'Здравствуйте'), line(2, 1, 2, 'Хочу оставить жалоба на курьера'), line(3, 0, 6, 'Передам руководителю')],
];

/** System dictionaries `system_1..3`, one custom dictionary, and calls with Russian transcriptions. */
export async function seedSpeech({ store, project, now, visitId }: SeedContext): Promise<void> {
  const dictionaries: StoredDocument<DictionaryDoc>[] = [];
  for (const [index, doc] of SYSTEM_DICTIONARIES.entries()) {
    dictionaries.push(await store.insert(project, DICTIONARY_KIND, doc, `${SYSTEM_DICTIONARY_PREFIX}${index + 1}`));
  }
  dictionaries.push(await store.insert(project, DICTIONARY_KIND, CUSTOM_DICTIONARY));
  for (const [index, lines] of [...CONVERSATIONS, []].entries()) {
    const duration = lines.length ? lines[lines.length - 1].time + 5 : 0;
    const doc: SpeechCallDoc = {
      date: formatUtcTimestamp(daysAgo(now, 3 + index * 9, 10 + index)), callee: '+74951234567',
      caller: `+7916000000${index}`, file_url: `https://records.sandbox.invalid/call-${index + 1}.mp3`,
      link: `https://records.sandbox.invalid/call-${index + 1}.mp3`, operator: index % 2 ? 'Анна' : 'Игорь',
      comment: null, is_swapped: 0, is_outcoming: index === 2 ? 1 : 0, order_id: null,
      visit_id: index === 3 ? null : visitId(1990 - index * 7), marker: null,
      fields: [{ title: 'Отдел', name: 'department', value: index % 2 ? 'sales' : 'support' }],
      duration, answer_duration: Math.max(0, duration - 4), waiting_time: lines.length ? 4 : 0,
      call_status: lines.length ? 'ANSWER' : 'NOANSWER',
      speech_statistics: statisticsOf(lines.map((l) => ({ ...l, dictionary_matches: [] })), duration),
      ...matchDictionaries(lines, dictionaries),
    };
    await store.insert(project, SPEECH_CALL_KIND, doc);
  }
}

function dictionary(name: string, color: string, isSystem: 0 | 1, isProblem: 0 | 1, forOperator: 0 | 1,
  forClient: 0 | 1, phrases: string[]): DictionaryDoc {
  return { name, color, is_system: isSystem, is_problem: isProblem, is_for_operator: forOperator, is_for_client: forClient, phrases };
}
