import * as crypto from 'crypto';

/** One-shot hashing (Node ≥ 20.12) skips a Hash object per record; createHash is the fallback. */
const sha1Base64: (text: string) => string =
  typeof (crypto as { hash?: unknown }).hash === 'function'
    ? (text) => (crypto as unknown as { hash(a: string, d: string, e: string): string }).hash('sha1', text, 'base64')
    : (text) => crypto.createHash('sha1').update(text).digest('base64');

/**
 * Fingerprint of a payload: sha1 of its JSON. The mapping builds payloads with a fixed key order,
 * so equal payloads give equal text. A connector's own raw-row hash (Page.hashes) is used instead
 * when given; it is prefixed so the two kinds never compare equal by accident.
 */
export function payloadFingerprint(payload: unknown): string {
  return 'p:' + sha1Base64(JSON.stringify(payload));
}

export function sourceFingerprint(hash: string): string {
  return 's:' + hash.slice(0, 60);
}
