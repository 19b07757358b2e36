/**
 * The benchmark's data: N deals with 3 products each and N/5 clients, as UTF-8 CSV in the spreadsheet
 * connector's canonical layout. Deterministic; `changedEvery` alters the price of every k-th deal
 * (k = 100 makes the "1 % changed" file).
 */
import { closeSync, openSync, writeSync } from 'node:fs';

const DEAL_HEADER = ['id', 'title', 'status', 'created_at', 'updated_at', 'price', 'cost', 'visit_id', 'client_id', 'manager_id'];
for (let p = 1; p <= 3; p++) DEAL_HEADER.push(`product_${p}_id`, `product_${p}_name`, `product_${p}_price`, `product_${p}_quantity`, `product_${p}_category`);

const pad = (n: number) => (n < 10 ? '0' : '') + n;
const stamp = (ms: number) => {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
};

/** Buffers lines and writes them in 1 MB chunks: a 1,000,000-row file in a few seconds. */
function writer(path: string) {
  const fd = openSync(path, 'w');
  let buffer = '';
  return {
    line(text: string) {
      buffer += text + '\n';
      if (buffer.length > 1 << 20) {
        writeSync(fd, buffer);
        buffer = '';
      }
    },
    close() {
      writeSync(fd, buffer);
      closeSync(fd);
    },
  };
}

/** later than every original updated_at of a 1,000,000-deal file, earlier than any run */
const CHANGED_AT = Date.UTC(2025, 11, 31);

/** `prefix`: of the deal ids (d1, d2, …), so that several files hold different deals. */
export function writeDeals(path: string, deals: number, changedEvery = 0, prefix = 'd'): void {
  const out = writer(path);
  out.line(DEAL_HEADER.join(','));
  const start = Date.UTC(2025, 0, 1);
  const clients = Math.max(1, Math.floor(deals / 5));
  for (let i = 1; i <= deals; i++) {
    const created = start + i * 20_000;
    const changed = changedEvery > 0 && i % changedEvery === 0;
    // a changed deal carries a new updated_at, as a CRM export would
    const updated = changed ? CHANGED_AT + i * 1000 : created + 3_600_000;
    const cells = [`${prefix}${i}`, `Deal ${i}`, String(i % 3), stamp(created), stamp(updated), String(1000 + (i % 500) + (changed ? 7 : 0)),
      String(600 + (i % 300)), String(1000001 + (i % 2000)), `c${1 + (i % clients)}`, `m${1 + (i % 10)}`];
    for (let p = 1; p <= 3; p++) cells.push(`p${(i + p) % 100}`, `Product ${(i + p) % 100}`, String(100 + p * 10), String(p), `Catalog > Group ${p} > Item`);
    out.line(cells.join(','));
  }
  out.close();
}

export function writeClients(path: string, clients: number): void {
  const out = writer(path);
  out.line('id,name,phone,email,company');
  for (let i = 1; i <= clients; i++) out.line(`c${i},Client ${i},+7900${String(i).padStart(7, '0')},client${i}@example.com,Company ${i % 97}`);
  out.close();
}
