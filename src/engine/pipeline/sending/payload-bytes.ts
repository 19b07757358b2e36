import { SerializedJson } from '../../../tracker/http/serialized-json';

/**
 * A payload serialised on a worker thread (offload/chunk-builder.ts): its JSON inside its chunk's body
 * (`[p0,p1,…]`, a buffer transferred from the worker, never copied on the way).
 */
export class PayloadBytes {
  constructor(
    /** the chunk's whole body */
    readonly body: Buffer,
    /** payloads in the body */
    readonly count: number,
    /** this payload's place among them */
    readonly ordinal: number,
    readonly offset: number,
    readonly length: number,
  ) {}

  get json(): Buffer {
    return this.body.subarray(this.offset, this.offset + this.length);
  }
}

/**
 * One request's body of a batch's payloads: the chunk's body itself when the batch is the whole chunk in order
 * (a full sync: nothing dropped), else the payloads' JSON joined; objects are serialised here.
 */
export function batchBody(payloads: readonly unknown[]): SerializedJson {
  if (!payloads.length || !(payloads[0] instanceof PayloadBytes)) return SerializedJson.of(payloads);
  const first = payloads[0];
  if (first.count === payloads.length && payloads.every((p, i) => p instanceof PayloadBytes && p.body === first.body && p.ordinal === i)) {
    return SerializedJson.ofBytes(first.body);
  }
  const parts: Buffer[] = [OPEN];
  payloads.forEach((p, i) => {
    if (i) parts.push(COMMA);
    parts.push(p instanceof PayloadBytes ? p.json : Buffer.from(JSON.stringify(p)));
  });
  parts.push(CLOSE);
  return SerializedJson.ofBytes(Buffer.concat(parts));
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');
