import * as http from 'http';
import { AddressInfo } from 'net';
import { closeSourceLimits, createSourceLimits } from '../../../connectors/generic-crm/http/source-limits';
import { busiestWindow, busyEventLoop } from '../../support/arrival-windows';

/**
 * The CRM's rate limit holds where the requests arrive: amoCRM allows 7 a second in any sliding second, and
 * once counted 8 within 998 ms. Measured at a loopback server while the event loop is kept busy, as on a
 * loaded machine (timers fire late, a request leaves late while the next goes on time).
 */
describe('generic CRM: the rate limit in any sliding second, where requests arrive', () => {
  let server: http.Server;
  let url: string;
  const arrivals: number[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      arrivals.push(performance.now());
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v4/leads`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('amoCRM 7 a second: never 8 arrivals within a second, under load', async () => {
    const limits = createSourceLimits({ requests: 7, per_seconds: 1 });
    const stopLoad = busyEventLoop();
    try {
      await Promise.all(Array.from({ length: 22 }, () => limits.schedule(() => get(url, limits.httpAgent))));
    } finally {
      stopLoad();
      await closeSourceLimits(limits);
    }
    expect(arrivals).toHaveLength(22);
    expect(busiestWindow(arrivals, 1000)).toBeLessThanOrEqual(7);
  }, 20_000);
});

function get(url: string, agent: http.Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    http.get(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve());
    }).on('error', reject);
  });
}
