import { serviceTimestamp } from '../storage/timestamps';
import { buildVisit } from '../visits/visit-factory';
import { DEMO_VISIT_COUNT, DEMO_VISIT_FIRST_ID } from '../visits/demo-visit-ids';
import type { VisitRecord } from '../visits/visit-record';

const DAY_MS = 86_400_000;

/**
 * 2,000 visits spread over the 90 days before `now`, cycling through channels, geos and devices.
 * Every fourth visit returns: its chain starts at the visit three before it.
 */
export function demoVisits(now: Date = new Date()): VisitRecord[] {
  const start = now.getTime() - 90 * DAY_MS;
  const step = (90 * DAY_MS) / DEMO_VISIT_COUNT;
  const visits: VisitRecord[] = [];
  for (let index = 0; index < DEMO_VISIT_COUNT; index += 1) {
    const id = String(DEMO_VISIT_FIRST_ID + index);
    const date = serviceTimestamp(new Date(Math.floor(start + index * step + (index * 7919) % Math.floor(step))));
    const firstVisitId = index % 4 === 3 ? String(DEMO_VISIT_FIRST_ID + index - 3) : id;
    visits.push(buildVisit(id, date, index, { first_visit_id: firstVisitId }));
  }
  return visits;
}
