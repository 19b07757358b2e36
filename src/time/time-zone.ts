import { IANAZone } from 'luxon';

/**
 * The daemon's one time-zone module (connectors get it from `tracker-sync/connector`).
 *
 * Wall-clock time in an IANA zone -> UTC instant. luxon gives a zone's offset at an instant; two rules are ours:
 * - which instant an ambiguous wall time means (luxon's DateTime.fromObject answers from the offset in force
 *   today, so its answer in a DST overlap changes with the season): in a gap the later offset wins, in an
 *   overlap the first occurrence;
 * - a cache: an offset costs microseconds (Intl), and this runs once or twice per row on a million rows. Offsets
 *   are kept per zone and UTC day: a day whose start and end share one offset (all but the two DST days a year)
 *   answers from the cache; a transition day falls back to a cache per 15 minutes (every modern transition
 *   happens on a quarter hour).
 */

const DAY_MS = 86_400_000;
const QUARTER_MS = 900_000;
const CACHE_LIMIT = 200_000;

class ZoneOffsets {
  private readonly zone: IANAZone;
  /** UTC day number -> offset in ms, or NaN when the offset changes within that day */
  private readonly days = new Map<number, number>();
  private readonly quarters = new Map<number, number>();

  constructor(zone: string) {
    this.zone = IANAZone.create(zone);
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

  /** luxon answers in minutes (fractional for the local mean times before standard zones) */
  private compute(utcMs: number): number {
    return Math.round(this.zone.offset(utcMs) * 60_000);
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

/** Whether `name` is an IANA time zone this process knows (`Europe/Moscow`, `UTC`). */
export function isTimeZone(name: unknown): name is string {
  return typeof name === 'string' && IANAZone.isValidZone(name);
}
