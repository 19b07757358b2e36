import { ConnectorRegistry } from '../../src/connectors/connector-registry';
import type { ConnectorDefinition, ReadContext } from '../../src/connectors/connector-definition';
import { createSyncService } from '../../src/engine/engine-parts';
import { EngineHarness } from '../support/engine-harness';
import { makeDeals, memoryConnector } from '../support/memory-connector';

/** A connector's optional open()/close() per run: what a run keeps instead of module-level caches. */
describe('engine: a connector session per run', () => {
  let h: EngineHarness;
  afterEach(() => h.stop());

  it('opens once before the first read, hands the session to every read of the run, and closes it at the end, whatever the outcome', async () => {
    h = await new EngineHarness({ batchSize: 10 }).start();
    h.source.deals = makeDeals(12);
    const events: string[] = [];
    const seen = new Set<unknown>();
    let opened = 0;
    let failReads = false;
    const withSession = {
      ...memoryConnector,
      open: (_settings: object, context: { connectionId: string }) => {
        events.push(`open ${context.connectionId}`);
        return { run: ++opened };
      },
      close: (session: unknown) => void events.push(`close ${(session as { run: number }).run}`),
      read: (stream: never, cursor: never, context: ReadContext) => {
        seen.add(context.session);
        if (failReads) throw new Error('the source is down');
        return memoryConnector.read(stream, cursor, context as never);
      },
    } as ConnectorDefinition;
    const registry = new ConnectorRegistry();
    registry.register(withSession);
    const sync = createSyncService(h.dataSource, h.tracker, registry, h.config, h.logger);

    const first = await (await sync.start(h.connectionId, { mode: 'incremental', trigger: 'cli' })).done;
    expect(first.status).toBe('succeeded');
    expect(events).toEqual([`open ${h.connectionId}`, 'close 1']);
    expect([...seen]).toEqual([{ run: 1 }]); // every stream of the run read with the one session

    failReads = true; // a run that fails closes its session all the same
    const second = await (await sync.start(h.connectionId, { mode: 'full', trigger: 'cli' })).done;
    expect(second.status).toBe('failed');
    expect(events.slice(2)).toEqual([`open ${h.connectionId}`, 'close 2']);
    await sync.shutdown(1000);
  });
});
