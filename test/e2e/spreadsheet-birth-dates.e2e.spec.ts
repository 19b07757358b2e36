import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import ExcelJS from 'exceljs';
import type { RunSummary } from '../../src/engine/engine-types';
import { E2eSync } from './e2e-harness';
import { allClients, orderDetails } from './sandbox-readback';

/**
 * A client's birth date is optional: a sheet's cell no reading makes a date (an impossible day, a word) leaves the
 * field out, not the client; one typed by hand ("8 февраля 1992") is read. The field left out is counted
 * (skipped_fields_by_invalid_format) and warned naming the connection, the client, the row and the field; the
 * deals of those clients are linked to clients the service has. A real CSV and a real XLSX in a temp folder,
 * read in the engine's thread and on a read thread (tracker.workers: 1), into the sandbox on loopback.
 */
describe.each([0, 1])('e2e: spreadsheet clients with unreadable birth dates (tracker.workers %i)', (workers) => {
  let dir: string;
  let e2e: E2eSync;
  let run: RunSummary;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'e2e-birth-'));
    writeFileSync(
      join(dir, 'clients.csv'),
      'id;name;email;birth_date\n' +
        'K-1;Мария;maria@example.ru;15.03.1985\n' +
        'K-2;Пётр;petr@example.ru;8 февраля 1992\n' +
        'K-3;Анна;anna@example.ru;31.02.1990\n' +
        'K-4;Олег;oleg@example.ru;не помню\n',
    );
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Сделки');
    sheet.addRow(['id', 'created_at', 'status', 'price', 'visit_id', 'client_id']);
    sheet.addRow(['D-1', '10.03.2025 12:00', '0', 100, '1000001', 'K-3']);
    sheet.addRow(['D-2', '10.03.2025 13:00', '0', 200, '1000002', 'K-4']);
    await workbook.xlsx.writeFile(join(dir, 'deals.xlsx'));
    e2e = await E2eSync.start({
      connectionId: `birth-${workers}`, connector: 'spreadsheet', workers,
      settings: { clients: { path: join(dir, 'clients.csv') }, deals: { path: join(dir, 'deals.xlsx') } },
    });
    run = await e2e.run();
  });
  afterAll(async () => {
    await e2e?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every client is sent; the birth dates no reading makes a date are left out and counted', async () => {
    expect({ status: run.status, error: run.error, rejected: run.rejected }).toEqual({ status: 'succeeded', error: null, rejected: [] });
    expect(run.streams.clients).toEqual({
      read: 4, unchanged: 0, sent: 4, rejected: 0, sent_without_visit: 0, skipped_fields_by_invalid_format: 2,
      notices: [expect.stringMatching(/^clients: 2 fields that could not be read left out, the records sent without them \(skipped_fields_by_invalid_format\): birth_date of K-3 \("31\.02\.1990" is not a valid date\); birth_date of K-4 \("не помню" is not a valid date\)$/)],
    });
    const clients = (await allClients(e2e.tracker)).map((c) => ({ id: c.external_id, birth_date: c.birth_date })).sort((a, b) => a.id.localeCompare(b.id));
    expect(clients).toEqual([
      { id: 'K-1', birth_date: '1985-03-15' },
      { id: 'K-2', birth_date: '1992-02-08' },
      { id: 'K-3', birth_date: null },
      { id: 'K-4', birth_date: null },
    ]);
  });

  it('each field left out is warned naming the connection, the client, the row and the field', () => {
    expect(e2e.log()).toContain(`connection birth-${workers}: clients record K-3 (clients.csv row 4): field birth_date left out, the record is sent without it: "31.02.1990" is not a valid date`);
    expect(e2e.log()).toContain(`connection birth-${workers}: clients record K-4 (clients.csv row 5): field birth_date left out, the record is sent without it: "не помню" is not a valid date`);
  });

  it('their deals are orders linked to the clients, which the service has', async () => {
    expect(run.streams.deals).toMatchObject({ read: 2, sent: 2, rejected: 0 });
    const details = await orderDetails(e2e.tracker, ['D-1', 'D-2']);
    expect(['D-1', 'D-2'].map((id) => ({ order: id, client: details.get(id)?.order.client_external_id, name: details.get(id)?.order.client_name }))).toEqual([
      { order: 'D-1', client: 'K-3', name: 'Анна' },
      { order: 'D-2', client: 'K-4', name: 'Олег' },
    ]);
  });

  it('a second run over the unchanged files sends nothing and warns nothing again', async () => {
    const before = e2e.logger.lines.length;
    const second = await e2e.run();
    expect({ status: second.status, clients: second.streams.clients }).toEqual({
      status: 'succeeded', clients: { read: 0, unchanged: 0, sent: 0, rejected: 0, sent_without_visit: 0 },
    });
    expect(e2e.logger.lines.slice(before).join('\n')).not.toMatch(/left out/);
  });
});
