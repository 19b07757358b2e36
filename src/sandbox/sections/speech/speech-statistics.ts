import { SpeechStatistics, TranscriptionEntry } from './speech.types';

const NUMERIC_FIELDS = [
  'silence_percent', 'silence_max_duration', 'pause_client_percent', 'pause_operator_percent',
  'pause_client_count_per_minute', 'pause_operator_count_per_minute', 'interrupt_client_count',
  'interrupt_operator_count', 'interrupt_total_count', 'interrupt_client_count_per_minute',
  'interrupt_operator_count_per_minute', 'interrupt_total_count_per_minute', 'interrupt_client_percent',
  'interrupt_operator_percent', 'interrupt_total_percent', 'speech_client_max_duration',
  'speech_operator_max_duration', 'speech_client_percent', 'speech_operator_percent', 'speech_client_speed',
  'speech_operator_speed',
] as const;

/** Every statistics field at zero: a call without transcription (the sandbox does not transcribe). */
export function emptyStatistics(): SpeechStatistics {
  const statistics: SpeechStatistics = {};
  for (const field of NUMERIC_FIELDS) statistics[field] = 0;
  statistics.speech_operator_to_client_ratio = '0/0';
  return statistics;
}

/**
 * Statistics derived from a transcription: speech shares by the words each side says,
 * `speech_operator_to_client_ratio` as `N/M` of operator to client phrases. The service's
 * exact formulas are not shown; these are consistent, not faithful.
 */
export function statisticsOf(transcriptions: TranscriptionEntry[], duration: number): SpeechStatistics {
  const statistics = emptyStatistics();
  const words = (isClient: 0 | 1) => transcriptions
    .filter((entry) => entry.is_client === isClient)
    .reduce((sum, entry) => sum + entry.text.split(/\s+/).filter(Boolean).length, 0);
  const [client, operator] = [words(1), words(0)];
  const total = Math.max(1, client + operator);
  const minutes = Math.max(duration, 1) / 60;
  statistics.speech_client_percent = Math.round((client / total) * 80);
  statistics.speech_operator_percent = Math.round((operator / total) * 80);
  statistics.silence_percent = 100 - Number(statistics.speech_client_percent) - Number(statistics.speech_operator_percent);
  statistics.speech_client_speed = Math.round(client / minutes);
  statistics.speech_operator_speed = Math.round(operator / minutes);
  const phrases = (isClient: 0 | 1) => transcriptions.filter((entry) => entry.is_client === isClient).length;
  statistics.speech_operator_to_client_ratio = `${phrases(0)}/${phrases(1)}`;
  return statistics;
}
