/**
 * Child-process probe for memory.spec.ts: reads FILE with the connector (loaded before the base RSS is taken)
 * and prints one JSON line { records, rejected, maxPage, baseRssMb, peakRssMb, seconds }.
 *   node --expose-gc -r ./register-ts.js read-memory-probe.ts FILE
 */
import '../../../../src/connectors/serve-contract'; // first: the connector imports tracker-sync/connector
import spreadsheetConnector from '../../../../connectors/spreadsheet';

async function main(): Promise<void> {
  const file = process.argv[2];
  (global as { gc?: () => void }).gc?.();
  const baseRss = process.memoryUsage().rss;
  let peakRss = baseRss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
  const started = Date.now();
  let records = 0;
  let rejected = 0;
  let maxPage = 0;
  const context = { connectionId: 'probe', settings: { deals: { path: file } }, logger: { log: () => undefined, warn: () => undefined }, state: null };
  for await (const page of spreadsheetConnector.read('deals', { since: null, until: new Date('2100-01-01T00:00:00Z') }, context)) {
    records += page.records.length;
    rejected += page.rejected?.length ?? 0;
    maxPage = Math.max(maxPage, page.records.length);
  }
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  const mb = (bytes: number) => Math.round(bytes / 1048576);
  console.log(JSON.stringify({ records, rejected, maxPage, baseRssMb: mb(baseRss), peakRssMb: mb(peakRss), seconds: (Date.now() - started) / 1000 }));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
