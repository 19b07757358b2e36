import { createServer, Server } from 'http';
import { AddressInfo, createServer as createTcpServer, Server as TcpServer } from 'net';
import { readdirSync } from 'fs';
import type { Deal } from '../../../src/connectors/canonical';
import spreadsheetConnector from '../../../connectors/spreadsheet';
import { downloadSheet } from '../../../connectors/spreadsheet/source/download';
import { readStream, tempDir } from './read-helper';

const CSV = 'id,title,created_at,price\nW1,Web deal,10.03.2025 12:00,"1 234,50"\nW2,Second,11.03.2025,10\n';

describe('spreadsheet connector: http(s) URLs', () => {
  const tmp = tempDir();
  let server: Server;
  let base: string;
  let csvRequests = 0;
  /** answers with a Content-Length of the whole CSV, sends the first 60 bytes of it and closes the connection */
  let cutting: TcpServer;
  let cutUrl: string;
  /** the same, but keeps the connection open and sends nothing more */
  let stalling: TcpServer;
  let stallUrl: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url?.startsWith('/pub?')) {
        csvRequests++;
        res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' });
        res.end(CSV);
      } else if (req.url === '/login') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<!DOCTYPE html><html><body>Sign in to continue</body></html>');
      } else if (req.url === '/sneaky.csv') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.end('  <html><body>Error 500</body></html>');
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    cutting = createTcpServer((socket) => {
      socket.once('data', () => {
        const body = Buffer.from(CSV);
        socket.end(Buffer.concat([
          Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: text/csv\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`),
          body.subarray(0, 60),
        ]));
      });
    });
    await new Promise<void>((resolve) => cutting.listen(0, '127.0.0.1', resolve));
    cutUrl = `http://127.0.0.1:${(cutting.address() as AddressInfo).port}/export.csv`;
    stalling = createTcpServer((socket) => {
      socket.once('data', () => {
        socket.write(`HTTP/1.1 200 OK\r\nContent-Type: text/csv\r\nContent-Length: ${Buffer.byteLength(CSV)}\r\n\r\n${CSV.slice(0, 40)}`);
      });
    });
    await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', resolve));
    stallUrl = `http://127.0.0.1:${(stalling.address() as AddressInfo).port}/export.csv`;
  });
  afterAll(async () => {
    await new Promise((resolve) => cutting.close(resolve));
    await new Promise((resolve) => stalling.close(resolve));
    await new Promise((resolve) => server.close(resolve));
    tmp.cleanup();
  });

  it('downloads a published CSV link into the work folder and reads it', async () => {
    const url = `${base}/pub?gid=0&single=true&output=csv`;
    const { records, refs } = await readStream<Deal>({ deals: { path: url } }, 'deals', { workDir: tmp.dir });
    expect(records.map((d) => [d.id, d.price, d.created_at.toISOString()])).toEqual([
      ['W1', 1234.5, '2025-03-10T09:00:00.000Z'],
      ['W2', 10, '2025-03-10T21:00:00.000Z'],
    ]);
    expect(refs[0]).toBe(`${base}/pub?… row 2`);
    expect(readdirSync(tmp.dir).some((name) => name.startsWith('spreadsheet-deals-'))).toBe(true);
  });

  it('downloads again but does not parse when the content is unchanged', async () => {
    const url = `${base}/pub?output=csv`;
    const first = await readStream({ deals: { path: url } }, 'deals', { workDir: tmp.dir });
    const before = csvRequests;
    const second = await readStream({ deals: { path: url } }, 'deals', { workDir: tmp.dir, state: first.state });
    expect(csvRequests).toBe(before + 1);
    expect(second.pages).toEqual([{ records: [], unchanged: true, state: first.state }]);
  });

  it('treats an HTML page instead of CSV as a connection error naming the URL', async () => {
    await expect(readStream({ deals: { path: `${base}/login` } }, 'deals', { workDir: tmp.dir })).rejects.toThrow(
      `${base}/login answered an HTML page (text/html; charset=utf-8) instead of CSV/XLSX`,
    );
    await expect(readStream({ deals: { path: `${base}/sneaky.csv` } }, 'deals', { workDir: tmp.dir })).rejects.toThrow(
      /sneaky.csv answered an HTML page/,
    );
  });

  it('fails a download whose body ends short of its Content-Length, and keeps no file of it', async () => {
    const workDir = `${tmp.dir}/cut`;
    await expect(readStream({ deals: { path: cutUrl } }, 'deals', { workDir })).rejects.toThrow(
      `download of ${cutUrl} failed: its body ended after 60 of the ${Buffer.byteLength(CSV)} bytes its Content-Length announced`,
    );
    expect(readdirSync(workDir)).toEqual([]);
  });

  it('names a download whose body stalls after its headers as a timeout, and keeps no file of it', async () => {
    const workDir = `${tmp.dir}/stalled`;
    await expect(downloadSheet(stallUrl, 'deals', workDir, 300)).rejects.toThrow(
      `download of ${stallUrl} failed: no data for 300 ms (timeout): its body ended after 40 of the ${Buffer.byteLength(CSV)} bytes its Content-Length announced`,
    );
    expect(readdirSync(workDir)).toEqual([]);
  });

  it('treats an HTTP error as a connection error naming the URL', async () => {
    await expect(readStream({ deals: { path: `${base}/missing.csv` } }, 'deals', { workDir: tmp.dir })).rejects.toThrow(
      `${base}/missing.csv answered HTTP 404 instead of a spreadsheet`,
    );
  });

  it('check() reports each stream; an HTML page fails the check with the URL', async () => {
    const context = { connectionId: 't', settings: {}, logger: { log: () => undefined, warn: () => undefined }, workDir: tmp.dir };
    const good = await spreadsheetConnector.check({ deals: { path: `${base}/pub?output=csv` } }, context);
    expect(good).toEqual({ ok: true, message: `deals: ${base}/pub?… readable (csv, 4 columns)` });
    const bad = await spreadsheetConnector.check({ deals: { path: `${base}/login` } }, context);
    expect(bad.ok).toBe(false);
    expect(bad.message).toContain(`${base}/login answered an HTML page`);
  });
});
