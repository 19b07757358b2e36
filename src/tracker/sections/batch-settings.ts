/** How the batched operations (add-orders, clients import) split and parallelise. */
export interface BatchSettings {
  batchSize: number;
  concurrency: number;
}
