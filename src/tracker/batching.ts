import pLimit from 'p-limit';

/** The result of one batch: its acknowledgement, or the error that stopped it. */
export interface BatchOutcome<R> {
  /** Position of the batch, 0-based. */
  index: number;
  /** Index of the batch's first item in the input array. */
  offset: number;
  size: number;
  response?: R;
  error?: Error;
}

/**
 * Splits `items` into batches of `batchSize` and sends up to `concurrency` at once.
 * A failed batch does not stop the others: the caller sees each outcome (order kept).
 */
export async function runBatches<T, R>(
  items: readonly T[],
  batchSize: number,
  concurrency: number,
  send: (batch: T[]) => Promise<R>,
): Promise<BatchOutcome<R>[]> {
  const size = Math.max(1, Math.floor(batchSize));
  const limit = pLimit(Math.max(1, Math.floor(concurrency)));
  const jobs: Promise<BatchOutcome<R>>[] = [];
  for (let offset = 0, index = 0; offset < items.length; offset += size, index++) {
    const batch = items.slice(offset, offset + size);
    const meta = { index, offset, size: batch.length };
    jobs.push(
      limit(() =>
        send(batch).then(
          (response) => ({ ...meta, response }),
          (error: unknown) => ({ ...meta, error: error instanceof Error ? error : new Error(String(error)) }),
        ),
      ),
    );
  }
  return Promise.all(jobs);
}
