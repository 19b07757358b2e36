import { readdirSync } from 'fs';
import { join } from 'path';
import { STREAM_ORDER } from '../../../../src/connectors/canonical';
import { mappingVersionOf, streamHandler } from '../../../../src/engine/pipeline/sending';

describe('stream registry (src/engine/pipeline/sending/index.ts)', () => {
  it('lists one handler per stream, each in its own module pipeline/sending/<stream>.ts over its mapping mappings/<stream>.ts', () => {
    const names = (folder: string) => readdirSync(join(__dirname, '../../../../src/engine', folder)).map((f) => f.replace(/\.ts$/, ''));
    const senders = names('pipeline/sending');
    const mappings = names('mappings');
    for (const stream of STREAM_ORDER) {
      expect(streamHandler(stream).stream).toBe(stream);
      expect(senders).toContain(stream);
      expect(mappings).toContain(stream);
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
