import type { SourceProgress } from '../../connectors/connector-definition';

/** What one stream's progress line shows, from the events seen so far. */
export interface StreamProgress {
  stream: string;
  read: number;
  sent: number;
  unchanged: number;
  rejected: number;
  /** 0..1 through the source; null when the source's size is unknown */
  fraction: number | null;
  /** the source's position in words: '1.2 MB of 4.0 MB', '3,000 of 12,000 records' */
  position: string | null;
  /** records read per second over the last few seconds; null until there is a second's worth */
  recordsPerSecond: number | null;
  /** seconds until the source is read, at the recent pace; null when unknown */
  secondsLeft: number | null;
  /** an outbound flow's counters, shown instead of read/sent/unchanged/rejected */
  flowCounters?: Record<string, number>;
}

interface Sample {
  at: number;
  read: number;
  done: number | null;
}

/** The rate is measured over this window: recent enough to follow a change of pace, long enough to be steady. */
const WINDOW_MS = 10_000;
const MIN_SPAN_MS = 1_000;

/** Follows one stream: keeps recent samples, derives pace and time left. */
export class StreamRate {
  private readonly samples: Sample[] = [];

  constructor(private readonly startedAt: number) {}

  update(
    event: { stream: string; read: number; sent: number; unchanged: number; rejected: number; source?: SourceProgress; flowCounters?: Record<string, number> },
    now: number,
  ): StreamProgress {
    const source = event.source;
    if (this.samples.length === 0) this.samples.push({ at: this.startedAt, read: 0, done: source ? 0 : null });
    this.samples.push({ at: now, read: event.read, done: source?.done ?? null });
    while (this.samples.length > 2 && now - this.samples[1].at >= WINDOW_MS) this.samples.shift();
    const first = this.samples[0];
    const span = now - first.at;
    const recordsPerSecond = span >= MIN_SPAN_MS ? ((event.read - first.read) * 1000) / span : null;
    const fraction = source?.total ? Math.min(1, source.done / source.total) : null;
    let secondsLeft: number | null = null;
    if (source?.total && first.done !== null && span >= MIN_SPAN_MS) {
      const unitsPerSecond = ((source.done - first.done) * 1000) / span;
      const left = Math.max(0, source.total - source.done);
      if (left === 0) secondsLeft = 0;
      else if (unitsPerSecond > 0) secondsLeft = left / unitsPerSecond;
    }
    return {
      stream: event.stream,
      read: event.read,
      sent: event.sent,
      unchanged: event.unchanged,
      rejected: event.rejected,
      fraction,
      position: source ? positionText(source) : null,
      recordsPerSecond,
      secondsLeft,
      ...(event.flowCounters ? { flowCounters: event.flowCounters } : {}),
    };
  }
}

function positionText(source: SourceProgress): string {
  if (source.unit === 'bytes') return source.total ? `${bytes(source.done)} of ${bytes(source.total)}` : `${bytes(source.done)} read`;
  if (source.unit !== 'records') return `${count(source.done)} of ${count(source.total ?? 0)} ${source.unit}`; // an outbound flow's pages or deals
  return source.total ? `${count(source.done)} of ${count(source.total)} records` : `${count(source.done)} records fetched`;
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} kB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** '45 s', '3 min 05 s', '2 h 10 min' */
export function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

/** `52% (1.2 MB of 2.3 MB) · read 12000 · sent 120 · unchanged 11877 · rejected 3 · 2,310 records/s · 5 s left` */
export function progressDetails(p: StreamProgress): string {
  const parts: string[] = [];
  if (p.fraction !== null) parts.push(`${Math.floor(p.fraction * 100)}% (${p.position})`);
  else if (p.position) parts.push(p.position);
  if (p.flowCounters) parts.push(...Object.entries(p.flowCounters).map(([name, value]) => `${name} ${value}`));
  else parts.push(`read ${p.read}`, `sent ${p.sent}`, `unchanged ${p.unchanged}`, `rejected ${p.rejected}`);
  if (p.recordsPerSecond !== null && !p.flowCounters) parts.push(`${count(Math.round(p.recordsPerSecond))} records/s`);
  if (p.secondsLeft !== null && p.fraction !== 1) parts.push(`${duration(p.secondsLeft)} left`);
  return parts.join(' · ');
}
