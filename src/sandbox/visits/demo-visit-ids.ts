/**
 * The demo visits' ids, a leaf: seed/ makes the visits, and the sections' demo data (sections/common) points at
 * them, while seed/ loads the sections' seeder; both read the ids here, so neither folder imports the other back.
 */
export const DEMO_VISIT_COUNT = 2000;
/** Demo visit ids are '1000001'..'1002000', so that demo data (CRM fixtures) can reference them. */
export const DEMO_VISIT_FIRST_ID = 1_000_001;
