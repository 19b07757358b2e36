/**
 * A fast 64-bit fingerprint of a raw row (two 32-bit multiply-xor lanes, cyrb53-style: two versions of one
 * record collide with a chance of about 2^-64), as 11 base64 characters. crypto's sha1 costs an object and a native call per row;
 * this is a plain loop over char codes, which also notes characters that betray a broken input (U+FFFD from
 * a wrong encoding, NUL from binary garbage, a BOM in the middle).
 */

export const FLAG_REPLACEMENT_CHAR = 1;
export const FLAG_NUL = 2;
export const FLAG_BOM = 4;

const FIELD_SEPARATOR = 0x1f;
/** a module constant: a global lookup per character is slow inside vm contexts (jest) */
const imul = Math.imul;

let flags = 0;
let high = 0;
let low = 0;

/** flags (FLAG_*) seen by the last hashRow call */
export function lastRowFlags(): number {
  return flags;
}

export function hashRow(cells: readonly unknown[], seed: number): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  let suspicious = false;
  for (let f = 0; f < cells.length; f++) {
    const cell = cells[f];
    const text = typeof cell === 'string' ? cell : cellText(cell);
    const length = text.length;
    let i = 0;
    // two UTF-16 units per step halves the multiplications (never read past the end: NaN deoptimises)
    for (; i + 1 < length; i += 2) {
      const a = text.charCodeAt(i);
      const b = text.charCodeAt(i + 1);
      if (a === 0 || a >= 0xfeff || b === 0 || b >= 0xfeff) suspicious = true;
      const k = a | (b << 16);
      h1 = imul(h1 ^ k, 2654435761);
      h2 = imul(h2 ^ k, 1597334677);
    }
    if (i < length) {
      const a = text.charCodeAt(i);
      if (a === 0 || a >= 0xfeff) suspicious = true;
      h1 = imul(h1 ^ a, 2654435761);
      h2 = imul(h2 ^ a, 1597334677);
    }
    h1 = imul(h1 ^ FIELD_SEPARATOR, 2654435761);
    h2 = imul(h2 ^ FIELD_SEPARATOR, 1597334677);
  }
  flags = suspicious ? scanFlags(cells) : 0;
  finish(h1, h2);
  return base64Of(high, low);
}

const ALPHABET = Uint8Array.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_', (c) => c.charCodeAt(0));

/** 64 bits as 11 URL-safe base64 characters, by hand: Number#toString(36) of a double costs ~2 µs a call */
function base64Of(h: number, l: number): string {
  const a = ALPHABET;
  return String.fromCharCode(
    a[(h >>> 26) & 63], a[(h >>> 20) & 63], a[(h >>> 14) & 63], a[(h >>> 8) & 63], a[(h >>> 2) & 63],
    a[((h & 3) << 4) | ((l >>> 28) & 15)], a[(l >>> 22) & 63], a[(l >>> 16) & 63], a[(l >>> 10) & 63], a[(l >>> 4) & 63],
    a[l & 15],
  );
}

/** the slow path, only for rows where a suspicious character was seen */
function scanFlags(cells: readonly unknown[]): number {
  let seen = 0;
  for (const cell of cells) {
    if (typeof cell !== 'string') continue;
    if (cell.includes('\uFFFD')) seen |= FLAG_REPLACEMENT_CHAR;
    if (cell.includes('\u0000')) seen |= FLAG_NUL;
    if (cell.includes('\uFEFF')) seen |= FLAG_BOM;
  }
  return seen;
}

/** 64-bit hash of one string, as two unsigned 32-bit halves written to `out` */
export function hashText(text: string, out: Uint32Array): void {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = imul(h1 ^ c, 2654435761);
    h2 = imul(h2 ^ c, 1597334677);
  }
  finish(h1, h2);
  out[0] = high;
  out[1] = low;
}

/** A seed from text (e.g. the stream's settings), so a mapping change changes every fingerprint. */
export function seedOf(text: string): number {
  const out = new Uint32Array(2);
  hashText(text, out);
  return out[0] ^ out[1];
}

function finish(a: number, b: number): void {
  let h1 = imul(a ^ (a >>> 16), 2246822507);
  h1 ^= imul(b ^ (b >>> 13), 3266489909);
  let h2 = imul(b ^ (b >>> 16), 2246822507);
  h2 ^= imul(h1 ^ (h1 >>> 13), 3266489909);
  high = h1;
  low = h2;
}

function cellText(cell: unknown): string {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? 'Invalid Date' : cell.toISOString();
  return String(cell);
}
