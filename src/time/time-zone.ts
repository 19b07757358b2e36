import { DateTime, IANAZone } from 'luxon';

/**
 * The daemon's one time-zone module (connectors get it from `tracker-sync/connector`).
 *
 * Wall-clock time in an IANA zone -> UTC instant. luxon gives a zone's offset at an instant; two rules are ours:
 * - which instant an ambiguous wall time means, the same in every zone (east or west of UTC, DST of an hour or of
 *   half an hour): in a gap (a wall time that does not exist) the later offset wins, the one in force after the
 *   change (Europe/Berlin 29.03.2026 02:30 is 00:30Z, at +02:00); in an overlap (a wall time that happens twice)
 *   the first occurrence (Europe/Berlin 25.10.2026 02:30 is 00:30Z, still at +02:00). luxon's own DateTime
 *   parsing answers otherwise (a gap moved forward, 01:30Z; an overlap's second occurrence): the generic CRM's
 *   dates (connectors/generic-crm/dates.ts) take luxon's parse for the wall time alone and come here for the
 *   instant, so both connectors read the same text as the same instant;
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
 *
 * The offsets a day before and a day after (as UTC instants: every real offset is within 14 hours) are the two
 * the wall time can mean. Each gives an instant; one whose own offset is the one it was made with is a reading of
 * the wall time. Both are: an overlap, the earlier instant is the first occurrence. Neither is: a gap, the offset
 * after the change.
 */
export function wallTimeToUtc(wallMs: number, zone: string): number {
  const offsets = zoneOffsets(zone);
  const before = offsets.offsetAt(wallMs - DAY_MS);
  const after = offsets.offsetAt(wallMs + DAY_MS);
  const early = wallMs - before;
  const earlyHolds = offsets.offsetAt(early) === before;
  if (before === after && earlyHolds) return early; // no change near: all but the two DST days a year
  const late = wallMs - after;
  const lateHolds = offsets.offsetAt(late) === after;
  if (earlyHolds && lateHolds) return Math.min(early, late); // an overlap: its first occurrence
  if (earlyHolds) return early;
  return late; // the later offset alone holds, or neither (a gap: the later offset wins)
}

/** Whether `name` is an IANA time zone this process knows (`Europe/Moscow`, `UTC`). */
export function isTimeZone(name: unknown): name is string {
  return typeof name === 'string' && IANAZone.isValidZone(name);
}

/**
 * The service's own zone: it reads a time without an offset as UTC+03:00 (`Etc/GMT-3`: the IANA name's sign is
 * reversed). A plain date made for an account that names no zone of its own is a day of this zone.
 */
export const SERVICE_ZONE = 'Etc/GMT-3';

/**
 * The calendar day ('YYYY-MM-DD') of an instant in a zone: an IANA name, or any zone luxon reads (`UTC+5`); null
 * when `zone` is none of them.
 */
export function calendarDayIn(instant: Date, zone: string): string | null {
  const local = DateTime.fromJSDate(instant, { zone });
  return local.isValid ? local.toISODate() : null;
}
