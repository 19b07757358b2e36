/**
 * Wall-clock time in an IANA zone -> UTC instant, without a date library.
 * Intl is slow (microseconds per call), so offsets are cached per zone and UTC day: a day whose start and
 * end share one offset (all but the two DST days a year) answers from the cache; a transition day falls
 * back to a cache per 15 minutes (every modern transition happens on a quarter hour).
 */

const DAY_MS = 86_400_000;
const QUARTER_MS = 900_000;
const CACHE_LIMIT = 200_000;

class ZoneOffsets {
  private readonly format: Intl.DateTimeFormat;
  /** UTC day number -> offset in ms, or NaN when the offset changes within that day */
  private readonly days = new Map<number, number>();
  private readonly quarters = new Map<number, number>();

  constructor(zone: string) {
    this.format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  }

  /** offset (local minus UTC, ms) in force at the UTC instant `utcMs` */
  offsetAt(utcMs: number): number {
    const day = Math.floor(utcMs / DAY_MS);
    let offset = this.days.get(day);
    if (offset === undefined) {
      const start = this.compute(day * DAY_MS);
      const end = this.compute(day * DAY_MS + DAY_MS - 1);
      offset = start === end ? start : NaN;
      this.remember(this.days, day, offset);
    }
    return Number.isNaN(offset) ? this.offsetInTransitionDay(utcMs) : offset;
  }

  private offsetInTransitionDay(utcMs: number): number {
    const quarter = Math.floor(utcMs / QUARTER_MS);
    let offset = this.quarters.get(quarter);
    if (offset === undefined) {
      offset = this.compute(quarter * QUARTER_MS);
      this.remember(this.quarters, quarter, offset);
    }
    return offset;
  }

  private compute(utcMs: number): number {
    const parts = this.format.formatToParts(new Date(utcMs));
    const value = (type: string) => Number(parts.find((p) => p.type === type)!.value);
    const asUtc = Date.UTC(value('year'), value('month') - 1, value('day'), value('hour'), value('minute'), value('second'));
    return asUtc - Math.floor(utcMs / 1000) * 1000;
  }

  private remember(cache: Map<number, number>, key: number, offset: number): void {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, offset);
  }
}

const zones = new Map<string, ZoneOffsets>();

function zoneOffsets(zone: string): ZoneOffsets {
  let offsets = zones.get(zone);
  if (!offsets) {
    offsets = new ZoneOffsets(zone);
    zones.set(zone, offsets);
  }
  return offsets;
}

/** true when Intl knows the zone name */
export function isKnownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The UTC instant of a wall-clock time given as if it were UTC (`Date.UTC(y, m, d, h, mi, s)`).
 * In a DST gap the later offset wins; in an overlap, the first occurrence.
 */
export function wallTimeToUtc(wallMs: number, zone: string): number {
  const offsets = zoneOffsets(zone);
  const first = offsets.offsetAt(wallMs);
  const guess = wallMs - first;
  const second = offsets.offsetAt(guess);
  return second === first ? guess : wallMs - second;
}
