import { BatchDispatcher, BatchSender } from '../../../src/engine/pipeline/batch-dispatcher';

/** A promise with its resolve and reject in hand. */
function deferred<T = void>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

const turn = () => new Promise((r) => setImmediate(r));

/** A sender whose answers and checkpoints the test releases by hand; it records what happened. */
class HandSender implements BatchSender<number, string> {
  readonly answers = new Map<number, ReturnType<typeof deferred<string>>>();
  readonly checkpoints = new Map<number, ReturnType<typeof deferred<void>>>();
  readonly log: string[] = [];
  inFlight = 0;
  maxInFlight = 0;

  send(batch: number[]): Promise<string> {
    const d = deferred<string>();
    this.answers.set(batch[0], d);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    this.log.push(`send ${batch.join(',')}`);
    return d.promise.finally(() => this.inFlight--);
  }

  answered(batch: number[], answer: string): Promise<void> {
    this.log.push(`answered ${batch[0]}: ${answer}`);
    const d = deferred();
    this.checkpoints.set(batch[0], d);
    return d.promise.then(() => void this.log.push(`written ${batch[0]}`));
  }

  failed(batch: number[], error: unknown): void {
    this.log.push(`failed ${batch[0]}: ${(error as Error).message}`);
  }
}

describe('batch dispatcher: concurrency and sending', () => {
  it('keeps at most `limit` requests in flight; a slot frees when its answer comes, before its checkpoint', async () => {
    const sender = new HandSender();
    const dispatcher = new BatchDispatcher(2, sender, () => false);
    await dispatcher.dispatch([1]);
    await dispatcher.dispatch([2]);
    let third = false;
    const waiting = dispatcher.dispatch([3]).then(() => (third = true));
    await turn();
    expect(third).toBe(false);
    expect(sender.log).toEqual(['send 1', 'send 2']);
    sender.answers.get(1)!.resolve('ok');
    await waiting;
    expect(sender.log).toEqual(['send 1', 'send 2', 'answered 1: ok', 'send 3']);
    expect(sender.maxInFlight).toBe(2);
    for (const n of [2, 3]) sender.answers.get(n)!.resolve('ok');
    let drained = false;
    const draining = dispatcher.drain().then(() => (drained = true));
    await turn();
    expect(drained).toBe(false); // checkpoints still being written
    for (const n of [1, 2, 3]) sender.checkpoints.get(n)!.resolve();
    await draining;
    expect(sender.log.filter((l) => l.startsWith('written'))).toEqual(['written 1', 'written 2', 'written 3']);
  });

  it('holds the next batch back while `limit` answered batches wait for their checkpoint (a slow store)', async () => {
    const sender = new HandSender();
    const dispatcher = new BatchDispatcher(1, sender, () => false);
    await dispatcher.dispatch([1]);
    sender.answers.get(1)!.resolve('ok');
    let sent = false;
    const next = dispatcher.dispatch([2]).then(() => (sent = true));
    await turn();
    await turn();
    expect(sent).toBe(false);
    expect(sender.log).toEqual(['send 1', 'answered 1: ok']);
    sender.checkpoints.get(1)!.resolve();
    await next;
    expect(sender.log).toEqual(['send 1', 'answered 1: ok', 'written 1', 'send 2']);
    sender.answers.get(2)!.resolve('ok');
    await turn();
    sender.checkpoints.get(2)!.resolve();
    await dispatcher.drain();
  });

  it('sends nothing once halted (a stop, a failure): the batch stays with the caller', async () => {
    const sender = new HandSender();
    let halted = false;
    const dispatcher = new BatchDispatcher(4, sender, () => halted);
    expect(await dispatcher.dispatch([1])).toBe(true);
    halted = true;
    expect(await dispatcher.dispatch([2])).toBe(false);
    sender.answers.get(1)!.resolve('ok');
    await turn();
    sender.checkpoints.get(1)!.resolve();
    await dispatcher.drain();
    expect(sender.log).toEqual(['send 1', 'answered 1: ok', 'written 1']);
  });

  it('reports a failed request, and an answer whose accounting failed, to `failed`; drain still ends', async () => {
    const sender = new HandSender();
    sender.answered = (batch) => Promise.reject(new Error(`no store for ${batch[0]}`));
    const dispatcher = new BatchDispatcher(2, sender, () => false);
    await dispatcher.dispatch([1]);
    await dispatcher.dispatch([2]);
    sender.answers.get(1)!.reject(new Error('HTTP 500'));
    sender.answers.get(2)!.resolve('ok');
    await dispatcher.drain();
    expect(sender.log.sort()).toEqual(['failed 1: HTTP 500', 'failed 2: no store for 2', 'send 1', 'send 2']);
  });

  it('works with a plain async send: every batch once, never more than `limit` at a time', async () => {
    let inFlight = 0;
    let most = 0;
    const got: number[] = [];
    const sender: BatchSender<number, number> = {
      send: async (batch) => {
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, 1 + (batch[0] % 3)));
        inFlight--;
        return batch.length;
      },
      answered: async (batch) => void got.push(...batch),
      failed: (_batch, e) => {
        throw e;
      },
    };
    const dispatcher = new BatchDispatcher(3, sender, () => false);
    for (let i = 0; i < 20; i++) await dispatcher.dispatch([i * 2, i * 2 + 1]);
    await dispatcher.drain();
    expect(got.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(most).toBe(3);
  });
});
