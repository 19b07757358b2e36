// Writes a deals CSV of ROWS rows for memory.spec.ts (plain JS: no TypeScript to load).
//   node generate-deals.js FILE ROWS
const { createWriteStream } = require('fs');
const { once } = require('events');

async function main() {
  const [file, rowsText] = process.argv.slice(2);
  const rows = Number(rowsText);
  const out = createWriteStream(file);
  let chunk = 'id,title,status,created_at,updated_at,price,cost,visit_id,client_id,manager_id,product_1_id,product_1_name,product_1_price,product_1_quantity\n';
  for (let i = 1; i <= rows; i++) {
    chunk += `D${i},Deal number ${i},${i % 3},10.03.2025 12:${String(i % 60).padStart(2, '0')},2025-03-11 10:00,"${i % 1000} 234,50",${i % 50},${900000 + i},C${i % 40000},M${i % 20},P${i % 500},Product ${i % 500},${i % 700},1\n`;
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
