/**
 * What the daemon writes under data_dir is its owner's only. The daemon's own files at start are in
 * test/daemon/first-run.spec.ts; here a data folder shared on purpose, and the connectors' work files (CRM pages,
 * downloaded sheets, stage counts), which are records too.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keepDataDirPrivate } from '../../src/config/private-files';
import { PageSpill } from '../../connectors/generic-crm/page-spill';
import { saveStageCounts } from '../../connectors/generic-crm/discovery/stage-counts';
import { downloadSheet } from '../../connectors/spreadsheet/source/download';

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe('files under data_dir', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'private-files-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a data folder that holds more than the daemon\'s files is left as it is, with a warning; its store file is still tightened', () => {
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'notes.txt'), 'the operator keeps this here');
    writeFileSync(join(dir, 'tracker-sync.sqlite'), '', { mode: 0o644 });
    const said: string[] = [];
    keepDataDirPrivate(dir, [join(dir, 'tracker-sync.sqlite'), join(dir, 'missing')], { info: (m) => said.push(`info ${m}`), warn: (m) => said.push(`warn ${m}`) });
    expect({ dir: modeOf(dir), store: modeOf(join(dir, 'tracker-sync.sqlite')) }).toEqual({ dir: '755', store: '600' });
    expect(said).toEqual([
      expect.stringMatching(/^warn data_dir \S+ may be read by other users \(mode 0755\) and holds more than the daemon's files \(notes\.txt\), so it is left as it is/),
      expect.stringMatching(/^info \S+tracker-sync\.sqlite could be read by other users \(mode 0644\): now 0600/),
    ]);
  });

  it("the connectors' work files are written 0600 in folders 0700, an earlier download's mode not kept", async () => {
    const work = join(dir, 'connectors', 'crm');
    const writer = await new PageSpill(join(work, 'deals-pages.jsonl')).create({ since: null, until: new Date() });
    await writer.write([{ id: 1 }]);
    await writer.complete();
    await saveStageCounts(work, new Map([['won', 3]]));
    const sheets = join(dir, 'connectors', 'sheet');
    mkdirSync(sheets, { recursive: true });
    const server = await serve('id;price\n1;10\n');
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/export.csv`;
      const first = await downloadSheet(url, 'deals', sheets);
      chmodSync(first.file, 0o644); // as a version before wrote it
      const again = await downloadSheet(url, 'deals', sheets);
      expect({ connectors: modeOf(work), pages: modeOf(join(work, 'deals-pages.jsonl')), stages: modeOf(join(work, 'deal-stages.json')), sheet: modeOf(again.file) })
        .toEqual({ connectors: '700', pages: '600', stages: '600', sheet: '600' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

async function serve(csv: string): Promise<Server> {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/csv' }).end(csv));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
