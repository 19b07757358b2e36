import { readdirSync } from 'fs';
import { join } from 'path';
import { STREAM_ORDER } from '../../../../src/connectors/canonical';
import { mappingVersionOf, streamHandler } from '../../../../src/engine/pipeline/sending';

describe('stream registry (src/engine/streams/index.ts)', () => {
  it('lists one handler per stream, each in its own module streams/<stream>.ts', () => {
    const modules = readdirSync(join(__dirname, '../../../src/engine/streams')).map((f) => f.replace(/\.ts$/, ''));
    for (const stream of STREAM_ORDER) {
      expect(streamHandler(stream).stream).toBe(stream);
      expect(modules).toContain(stream);
      expect(Number.isInteger(streamHandler(stream).mappingVersion)).toBe(true);
    }
  });

  it("takes the handler's mapping version unless EngineOptions.mappingVersions overrides it", () => {
    expect(mappingVersionOf('deals')).toBe(streamHandler('deals').mappingVersion);
    expect(mappingVersionOf('deals', { deals: 9 })).toBe(9);
    expect(mappingVersionOf('clients', { deals: 9 })).toBe(streamHandler('clients').mappingVersion);
  });

  it('sends in parallel only where order within the stream does not matter', () => {
    expect(STREAM_ORDER.filter((s) => streamHandler(s).concurrent)).toEqual(['clients', 'deals', 'events']);
  });
});
