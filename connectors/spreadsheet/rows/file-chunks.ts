import { promises as fs, readSync } from 'fs';
import { isMainThread } from 'worker_threads';
import type { ReadGuard } from '../source/read-guard';

/**
 * The bytes of a file front to back, in chunks of `chunkBytes` (a fresh buffer each: readers keep views into
 * them), the next read started while the current chunk is used. With a ReadGuard, each chunk is checked before
 * it is handed out, and the end is checked before the iteration ends (so a reader's last rows, the ones a
 * truncation would tear, come after that check).
 *
 * On a worker thread (the engine's read thread, src/engine/offload) a chunk is read synchronously: nothing else
 * waits on that thread, and an asynchronous read hands each chunk to libuv's thread pool and back, which the
 * thread pays in waits when the pool's threads share two busy cores with the main thread and the store (a
 * 1,000,000-deal full sync took 14.0 s with asynchronous reads, 12.6 s with these: docs/benchmarks.md). On the
 * main thread (`tracker.workers: 0`) reads stay asynchronous, so a slow disk never stalls the event loop.
 */
const BLOCKING_READS = !isMainThread;

export class FileChunks {
  /** bytes handed out so far */
  bytesRead = 0;

  constructor(
    private readonly file: string,
    private readonly chunkBytes: number,
    private readonly guard?: ReadGuard,
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<Buffer> {
    const handle = await fs.open(this.file, 'r');
    const read = async (): Promise<Buffer | null> => {
      const buffer = Buffer.allocUnsafe(this.chunkBytes);
      const bytesRead = BLOCKING_READS ? readSync(handle.fd, buffer, 0, buffer.length, null) : (await handle.read(buffer, 0, buffer.length, null)).bytesRead;
      return bytesRead === 0 ? null : bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead);
    };
    let next: Promise<Buffer | null> | null = read();
    try {
      for (;;) {
        const chunk: Buffer | null = await next;
        next = null;
        if (chunk === null) break;
        this.guard?.chunk(handle.fd, chunk);
        this.bytesRead += chunk.length;
        next = read();
        yield chunk;
      }
      this.guard?.endOfBytes(handle.fd);
    } finally {
      await next?.catch(() => undefined);
      await handle.close();
    }
  }
}
