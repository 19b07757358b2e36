/**
 * Writes the demo spreadsheets the default connection `demo-sheet` reads: 10 managers, 300 clients and
 * 1,000 deals shaped like a Russian CRM export (`;` delimiter, Windows-1251, CRLF, DD.MM.YYYY dates,
 * "1 234,50" numbers), with visit ids that exist in the sandbox's demo project, and a few rows that are
 * wrong on purpose so the demo shows rejected records and the service's skip counters.
 * Deterministic: run it again and the files are byte-identical.
 *   node -r ts-node/register/transpile-only config/demo/generate-demo-data.ts
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encode } from 'iconv-lite';

let seed = 20261122;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
const pad = (n: number) => String(n).padStart(2, '0');
const NBSP = '\u00a0';

const FIRST = ['Алексей', 'Мария', 'Иван', 'Ольга', 'Дмитрий', 'Екатерина', 'Сергей', 'Анна', 'Павел', 'Наталья', 'Андрей', 'Юлия'];
const LAST = ['Иванов', 'Смирнов', 'Кузнецов', 'Попов', 'Соколов', 'Лебедев', 'Козлов', 'Новиков', 'Морозов', 'Волков'];
const COMPANIES = ['ООО «Ромашка»', 'АО «Север»', 'ИП Петров', 'ООО «ТехноСнаб»', 'ООО «Вектор»', ''];
const CITIES = ['Москва', 'Санкт-Петербург', 'Казань', 'Екатеринбург', 'Новосибирск'];
const PRODUCTS = [
  { id: 'SKU-101', name: 'Диван «Уют»', price: 45990, category: 'Мебель > Мягкая мебель > Диваны' },
  { id: 'SKU-102', name: 'Кресло «Лофт»', price: 18990, category: 'Мебель > Мягкая мебель > Кресла' },
  { id: 'SKU-201', name: 'Стол обеденный', price: 23500, category: 'Мебель > Столы' },
  { id: 'SKU-301', name: 'Доставка', price: 1500, category: 'Услуги' },
  { id: 'SKU-302', name: 'Сборка', price: 2500, category: 'Услуги' },
];
/** CRM stage ids; the demo connection's status_map turns them into the service's 0/1/2 */
const STAGES = ['new', 'in_work', 'in_work', '142', '142', '143'];

const person = (female: boolean) => `${pick(FIRST)} ${pick(LAST)}${female ? 'а' : ''}`;
const money = (value: number) => {
  const [whole, cents] = value.toFixed(2).split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, NBSP)},${cents}`;
};
const dateTime = (d: Date) => `${pad(d.getUTCDate())}.${pad(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
const csvCell = (v: string) => (/[;"\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const csv = (rows: string[][]) => rows.map((r) => r.map(csvCell).join(';')).join('\r\n') + '\r\n';

function managers(): string[][] {
  const rows = [['id', 'name', 'phone', 'email']];
  for (let i = 1; i <= 10; i++) rows.push([`m${i}`, person(i % 2 === 0), `+7 (9${int(10, 99)}) ${int(100, 999)}-${int(10, 99)}-${int(10, 99)}`, `manager${i}@example.ru`]);
  return rows;
}

function clients(): string[][] {
  const rows = [['id', 'name', 'phone', 'email', 'company', 'birth_date', 'Город']];
  for (let i = 1; i <= 300; i++) {
    const phone = `+7 9${int(10, 99)} ${int(100, 999)}-${int(10, 99)}-${int(10, 99)}`;
    const birth = `${pad(int(1, 28))}.${pad(int(1, 12))}.${int(1960, 2002)}`;
    rows.push([`c${i}`, person(i % 2 === 0), i % 7 === 0 ? `${phone}, +7 495 ${int(100, 999)}-${int(10, 99)}-${int(10, 99)}` : phone, `client${i}@mail.ru`, pick(COMPANIES), birth, pick(CITIES)]);
  }
  return rows;
}

function deals(): string[][] {
  const header = ['id', 'title', 'status', 'created_at', 'updated_at', 'price', 'cost', 'visit_id', 'client_id', 'manager_id'];
  for (let p = 1; p <= 3; p++) header.push(`product_${p}_id`, `product_${p}_name`, `product_${p}_price`, `product_${p}_quantity`, `product_${p}_category`);
  header.push('status_history', 'Город', 'Комментарий');
  const rows = [header];
  const start = Date.UTC(2026, 7, 20, 6, 0); // deals over the 90 days before the demo was made, none in the future
  for (let i = 1; i <= 1000; i++) {
    const created = new Date(start + int(0, 88 * 24) * 3_600_000 + int(0, 59) * 60_000);
    const updated = new Date(created.getTime() + int(1, 72) * 3_600_000);
    const stage = pick(STAGES);
    const items = Array.from({ length: int(1, 3) }, () => pick(PRODUCTS));
    const price = items.reduce((sum, p) => sum + p.price, 0);
    const history = `${dateTime(created).slice(0, 10)}:new${stage === 'new' ? '' : `;${dateTime(updated)}:${stage}`}`;
    const row = [`D-${10000 + i}`, `Заказ №${10000 + i}`, stage, dateTime(created), dateTime(updated), money(price), money(Math.round(price * 0.6)),
      String(1000000 + int(1, 2000)), `c${int(1, 300)}`, `m${int(1, 10)}`];
    for (let p = 0; p < 3; p++) {
      const item = items[p];
      row.push(...(item ? [item.id, item.name, money(item.price), '1', item.category] : ['', '', '', '', '']));
    }
    row.push(history, pick(CITIES), i % 5 === 0 ? 'Перезвонить после 18:00' : '');
    rows.push(row);
  }
  breakOnPurpose(rows);
  return rows;
}

/** The demo's deliberate problems: what real exports contain, and what the run summary then explains. */
function breakOnPurpose(rows: string[][]): void {
  const col = (name: string) => rows[0].indexOf(name);
  rows[4][col('created_at')] = '31.02.2026 10:00'; // impossible date: rejected by the connector
  rows[9][col('price')] = 'около 5000'; // not a number: rejected by the connector
  rows[15][col('id')] = ''; // no id: rejected
  rows[22][col('Комментарий')] = 'Очень длинный комментарий. '.repeat(45); // over 1000 symbols: rejected by our checks
  rows[31][col('visit_id')] = '9999999'; // a visit the service does not know (yet): skipped_by_waiting_visit_info
  rows[40][col('status')] = 'on_hold'; // a stage the service does not know: skipped_by_status
  rows[57][col('id')] = rows[56][col('id')]; // duplicate id in one file: the later row is rejected
}

const folder = __dirname;
for (const [name, rows] of [['managers.csv', managers()], ['clients.csv', clients()], ['deals.csv', deals()]] as const) {
  writeFileSync(join(folder, name), encode(csv(rows), 'win1251'));
  console.log(`${name}: ${rows.length - 1} rows`);
}
