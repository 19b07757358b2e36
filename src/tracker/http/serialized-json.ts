/**
 * A request body already serialised to JSON by the caller: the transport sends its text as it is. A caller that
 * keeps the text instead of the objects (the engine's batches in flight) holds one flat string, not thousands
 * of small objects that outlive the young generation.
 */
export class SerializedJson {
  constructor(readonly text: string) {}

  static of(value: unknown): SerializedJson {
    return new SerializedJson(JSON.stringify(value));
  }
}
