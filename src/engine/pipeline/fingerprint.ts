import * as crypto from 'crypto';

/** One-shot hashing (Node ≥ 20.12) skips a Hash object per record; createHash is the fallback. */
const sha1Base64: (text: string) => string =
  typeof (crypto as { hash?: unknown }).hash === 'function'
    ? (text) => (crypto as unknown as { hash(a: string, d: string, e: string): string }).hash('sha1', text, 'base64')
    : (text) => crypto.createHash('sha1').update(text).digest('base64');

/** record_state.fingerprint is a varchar(64) */
const FINGERPRINT_LENGTH = 64;

/** Fingerprints of one stream's records. */
export interface Fingerprinter {
  /** sha1 of the payload's JSON (the mapping builds payloads with a fixed key order: equal payloads, equal text) */
  payload(payload: unknown): string;
  /** the same, of the payload's JSON already made (a read on a worker thread serialises it once for both) */
  payloadText(json: string): string;
  /** a connector's own raw-row hash (Page.hashes), used instead of the payload's when given */
  source(hash: string): string;
}

/**
 * Fingerprints carry the stream's mapping version (`p3:…` / `s3:…`): a release that maps records differently
 * bumps it, and every record acknowledged under the old version compares unequal and is sent again once.
 * The two kinds are prefixed differently so they never compare equal by accident.
 */
export function fingerprinter(mappingVersion: number): Fingerprinter {
  const payloadPrefix = `p${mappingVersion}:`;
  const sourcePrefix = `s${mappingVersion}:`;
  const room = FINGERPRINT_LENGTH - sourcePrefix.length;
  return {
    payload: (payload) => payloadPrefix + sha1Base64(JSON.stringify(payload)),
    payloadText: (json) => payloadPrefix + sha1Base64(json),
    source: (hash) => sourcePrefix + hash.slice(0, room),
  };
}

/** Key of the mapping version in a stored connector stream state. */
const STATE_VERSION_KEY = 'engine_mapping_version';

/** The connector's stream state as the store keeps it: tagged with the mapping version its records were sent under. */
export function stateToStore(state: Record<string, unknown>, mappingVersion: number): Record<string, unknown> {
  return { ...state, [STATE_VERSION_KEY]: mappingVersion };
}

/**
 * The stored stream state handed back to the connector, or null when it was saved under another mapping
 * version: a connector's "source unchanged" shortcut (the spreadsheet's content hash) must not skip records
 * that the new mapping sends differently.
 */
export function storedStateFor(stored: Record<string, unknown> | null, mappingVersion: number): Record<string, unknown> | null {
  if (!stored || stored[STATE_VERSION_KEY] !== mappingVersion) return null;
  const own = { ...stored };
  delete own[STATE_VERSION_KEY];
  return own;
}
