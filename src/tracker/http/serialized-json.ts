/**
 * A request body already serialised to JSON by the caller: the transport sends its bytes as they are. A caller
 * that keeps the body instead of the objects (the engine's batches in flight) holds one buffer outside the
 * JavaScript heap, not thousands of small objects that outlive the young generation. The JSON text itself
 * is let go at once: a 250 KB string held while a request is in flight is promoted to the old generation and
 * brings its next full collection forward (measured: 37 → 23 full collections in a 300,000-deal sync).
 */
export class SerializedJson {
  readonly bytes: Buffer;

  constructor(text: string | Buffer) {
    this.bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  }

  /** JSON already encoded (a body made on a worker thread): its bytes as they are */
  static ofBytes(bytes: Buffer): SerializedJson {
    return new SerializedJson(bytes);
  }

  static of(value: unknown): SerializedJson {
    return new SerializedJson(JSON.stringify(value));
  }

  /** The text again, decoded from the bytes: for the rare reader (a refused order read back). */
  get text(): string {
    return this.bytes.toString('utf8');
  }
}
