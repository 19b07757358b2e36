import { plainToInstance } from 'class-transformer';
import { dirname } from 'path';
import type { ConnectorDefinition, ConnectorLogger, RunContext } from '../../connectors/connector-definition';
import { servePluginImports } from '../../connectors/plugin-resolution';
import { streamMapping } from '../mappings';
import { ChunkBuilder } from './chunk-builder';
import type { MainMessage, ReadTask, WorkerMessage } from './offload-wire';

/**
 * A worker thread's task (the pool of offload-pool.ts): one stream's read, the connector's `read()` with its
 * parsing, row hashes and read guard, then the stream's mapping, checks, fingerprints and JSON (chunk-builder.ts).
 * Chunks go to the main thread over the task's port, each only when the main thread has given credit for it, so
 * a read never runs ahead of the sending by more than a few chunks (flat memory). Loads nothing of the store, the
 * HTTP client or Nest.
 */
export async function readStream(task: ReadTask | { warm: string }): Promise<void> {
  if ('warm' in task) return void loadDefinition(task.warm);
  const { port } = task;
  const flow = new Credit();
  const stop = new AbortController();
  port.on('message', (message: MainMessage) => {
    if ('stop' in message) {
      stop.abort();
      flow.end();
    } else flow.give(message.credit);
  });
  const say = (level: 'log' | 'warn' | 'debug' | 'notice') => (message: string) => port.postMessage({ kind: 'log', level, message } satisfies WorkerMessage);
  const logger: ConnectorLogger = { log: say('log'), warn: say('warn'), debug: say('debug'), notice: say('notice') };
  let ended = false;
  try {
    const definition = loadDefinition(task.connectorModule);
    const settings = definition.settingsClass ? plainToInstance(definition.settingsClass as new () => object, task.settings) : task.settings;
    const builder = new ChunkBuilder(streamMapping(task.stream), task.mappingVersion, task.batchSize, task.serialise);
    const send = async (): Promise<void> => {
      const taken = builder.take();
      if (!taken) return;
      await flow.take();
      if (stop.signal.aborted) return;
      port.postMessage({ kind: 'chunk', chunk: taken.chunk } satisfies WorkerMessage, taken.transfer);
    };
    const window = { since: task.since === null ? null : new Date(task.since), until: new Date(task.until) };
    const base = { connectionId: task.connectionId, settings, logger, signal: stop.signal, workDir: task.workDir };
    const session = await sessionFor(definition, task, base);
    const pages = definition.read(task.stream, window, { ...base, state: task.state, laterStreams: task.laterStreams, session, openRejections: task.openRejections });
    for await (const page of pages) {
      if (stop.signal.aborted) break;
      builder.rejected(page);
      for (let i = 0; i < page.records.length; i++) {
        builder.add(page.records[i], page.refs?.[i], page.hashes?.[i]);
        if (task.exitAfterRecords !== undefined && builder.mapped >= task.exitAfterRecords) process.exit(70);
        if (builder.full) await send();
        if (stop.signal.aborted) break;
      }
      builder.pageDone(page);
      if (page.state || page.unchanged) await send();
    }
    if (!stop.signal.aborted) {
      await send();
      port.postMessage({ kind: 'end' } satisfies WorkerMessage);
      ended = true;
    }
  } catch (e) {
    port.postMessage({ kind: 'failed', message: e instanceof Error ? e.message : String(e) } satisfies WorkerMessage);
  } finally {
    port.close();
    // the run's last read, or one that failed or was stopped (its run ends): nothing of the session is needed
    if (!task.laterStreams.length || stop.signal.aborted || !ended) await closeSession(task.connectionId);
  }
}

/**
 * The connector's session of each connection's run on this thread (ConnectorDefinition.open): what one read of the
 * run starts for a later one (the spreadsheet's scans of the later streams' files) is there when that read's task
 * comes to this thread, as in a read on the main thread. Opened by the run's first read here, closed after its
 * last (or a failed one), or when a read of another run of the connection comes.
 */
const sessions = new Map<string, { runId: number; session: unknown; definition: ConnectorDefinition }>();

async function sessionFor(definition: ConnectorDefinition, task: ReadTask, context: RunContext): Promise<unknown> {
  const held = sessions.get(task.connectionId);
  if (held?.runId === task.runId && held.definition === definition) return held.session;
  await closeSession(task.connectionId);
  if (!definition.open) return undefined;
  const session = await definition.open(context.settings, context);
  sessions.set(task.connectionId, { runId: task.runId, session, definition });
  return session;
}

async function closeSession(connectionId: string): Promise<void> {
  const held = sessions.get(connectionId);
  if (!held) return;
  sessions.delete(connectionId);
  await held.definition.close?.(held.session);
}

/**
 * The connector's definition, from its module: the contract's import served as the loader serves it (once per
 * thread: require's cache keeps it, and the parser's and mappings' modules, for the thread's next reads).
 */
function loadDefinition(module: string): ConnectorDefinition {
  servePluginImports(dirname(module));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const exported = require(module) as { default?: ConnectorDefinition };
  if (!exported.default?.read) throw new Error(`${module} exports no connector definition as its default`);
  return exported.default;
}

/** Chunks the main thread is ready for: a read waits here, so it never runs far ahead of the sending. */
class Credit {
  private credit = 0;
  private ended = false;
  private waiting: (() => void) | null = null;

  give(n: number): void {
    this.credit += n;
    this.wake();
  }

  end(): void {
    this.ended = true;
    this.wake();
  }

  async take(): Promise<void> {
    while (this.credit <= 0 && !this.ended) await new Promise<void>((resolve) => (this.waiting = resolve));
    this.credit--;
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.();
  }
}
