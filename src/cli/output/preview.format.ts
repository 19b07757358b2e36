import type { PreviewRecord, PreviewResult, PreviewStream } from '../../engine';
import { rejectedLine } from './run-summary.format';

/** The dry run as text: per stream, each record's verdict, its canonical form and the exact payload. */
export function previewLines(result: PreviewResult): string[] {
  const lines = [`connection ${result.connectionId}: preview (nothing is sent, no cursor moves)`];
  for (const stream of result.streams) lines.push(...streamLines(stream));
  return lines;
}

function streamLines(stream: PreviewStream): string[] {
  const lines = ['', `${stream.stream}: ${stream.records.length} record(s)`];
  if (stream.error) lines.push(`  error: ${stream.error}`);
  for (const record of stream.records) lines.push(...recordLines(stream.stream, record));
  for (const rejected of stream.rejected) {
    lines.push(`  ${rejectedLine({ stream: stream.stream, external_id: rejected.id, ref: rejected.ref ?? null, field: rejected.field, reason: rejected.reason })}`);
  }
  return lines;
}

function recordLines(stream: string, record: PreviewRecord): string[] {
  const ref = record.ref ? ` (${record.ref})` : '';
  return [
    `  ${stream} ${record.record.id}${ref}: ${verdict(record)}`,
    ...record.problems.map((p) => `    ✗ ${p.field}: ${p.reason}`),
    `    canonical: ${indent(JSON.stringify(record.record, null, 2))}`,
    `    payload:   ${record.payload === null ? '(none: mapping failed)' : indent(JSON.stringify(record.payload, null, 2))}`,
  ];
}

function verdict(record: PreviewRecord): string {
  if (record.problems.length > 0) return `would be rejected (${record.problems.length} problem(s))`;
  return record.unchanged ? 'unchanged (the service already has this exact payload)' : 'would be sent';
}

function indent(json: string): string {
  return json.split('\n').join('\n    ');
}
