/**
 * `alerts[].projects`: an alert with projects fires for the connections of those projects only (an agency's alert
 * per client); a name that is not a project is a config error naming the key. Real runs of the engine (memory
 * connector, loopback service, SQLite store) feed a loopback webhook.
 */
import { AlertDispatcher } from '../../src/alerts/alert-dispatcher';
import { AlertEvaluator } from '../../src/alerts/alert-evaluator';
import { alertScrubber } from '../../src/alerts/alert-secrets';
import { AlertConfig, ConfigError, ConnectionConfig, validateConfig } from '../../src/config';
import { StoreRepositories } from '../../src/store/store-repositories';
import { HttpReceiver } from '../support/alert-receivers';
import { CapturingLogger, EngineHarness } from '../support/engine-harness';
import { makeDeals } from '../support/memory-connector';

describe('alerts of a project', () => {
  let h: EngineHarness;
  let receiver: HttpReceiver;
  let dispatcher: AlertDispatcher;
  let evaluator: AlertEvaluator;

  afterEach(async () => {
    await evaluator?.stop();
    await dispatcher?.stop(100);
    await h?.stop();
    await receiver?.stop();
  });

  it('fires for the connections of its projects, not for another project\'s', async () => {
    receiver = new HttpReceiver();
    await receiver.start();
    h = await new EngineHarness().start();
    h.config.connections[0].project = 'acme';
    const alert = (id: string, extra: Partial<AlertConfig>) =>
      Object.assign(new AlertConfig(), { id, type: 'webhook', url: `${receiver.url}/${id}`, events: ['run_failed'] }, extra);
    h.config.alerts = [alert('acme-ops', { projects: ['acme'] }), alert('beta-ops', { projects: ['beta'] }), alert('everyone', {}),
      alert('acme-other-connection', { projects: ['acme'], connections: ['elsewhere'] })];
    const store = new StoreRepositories(h.dataSource);
    const logger = new CapturingLogger();
    dispatcher = new AlertDispatcher(store.alerts, { logger, scrub: alertScrubber(h.config) }, { backoff: { baseMs: 50, maxMs: 200, jitter: false }, timeoutMs: 2000 });
    evaluator = new AlertEvaluator(h.config.alerts, h.config.connections, store, dispatcher, logger, { checkIntervalMs: 60_000, statusUrl: 'http://127.0.0.1:3000/' });
    evaluator.start(h.sync.events);

    h.source.deals = makeDeals(2);
    h.source.beforePage = () => {
      throw new Error('CRM answered 502');
    };
    expect((await h.run()).status).toBe('failed');
    await evaluator.settled();
    await dispatcher.idle();
    expect(receiver.posts.map((post) => post.path).sort()).toEqual(['/acme-ops', '/everyone']);
  });

  it('an alert naming a connection stays with the project it was written for: a reload moving the id elsewhere sends it none of the new project\'s runs', async () => {
    receiver = new HttpReceiver();
    await receiver.start();
    h = await new EngineHarness().start();
    h.config.connections[0].project = 'beta';
    const alert = (id: string, extra: Partial<AlertConfig>) =>
      Object.assign(new AlertConfig(), { id, type: 'webhook', url: `${receiver.url}/${id}`, events: ['run_failed'] }, extra);
    h.config.alerts = [alert('beta-client', { connections: [h.connectionId] }), alert('everyone', {})];
    const store = new StoreRepositories(h.dataSource);
    const logger = new CapturingLogger();
    dispatcher = new AlertDispatcher(store.alerts, { logger, scrub: alertScrubber(h.config) }, { backoff: { baseMs: 50, maxMs: 200, jitter: false }, timeoutMs: 2000 });
    evaluator = new AlertEvaluator(h.config.alerts, h.config.connections, store, dispatcher, logger, { checkIntervalMs: 60_000, statusUrl: 'http://127.0.0.1:3000/' });
    evaluator.start(h.sync.events);

    // what a reload does: the same id, now under acme, in place in the one connections array
    h.config.connections.splice(0, 1, Object.assign(new ConnectionConfig(), { ...h.config.connections[0], project: 'acme' }));
    h.source.deals = makeDeals(2);
    h.source.beforePage = () => {
      throw new Error('CRM answered 502 for Jane Doe <jane@acme.example>');
    };
    expect((await h.run()).status).toBe('failed');
    await evaluator.settled();
    await dispatcher.idle();
    expect(receiver.posts.map((post) => post.path)).toEqual(['/everyone']);
    expect(logger.lines).toContainEqual(expect.stringMatching(/^warn alert beta-client names demo, which fed project beta when the alerts were read and feeds acme now: the alert no longer watches it/));
    // what the installation-wide alert kept is acme's
    expect((await store.alerts.active()).map((s) => [s.alert_id, s.project])).toEqual([['everyone', 'acme']]);
    expect((await store.alerts.deliveries({}, { limit: 10, offset: 0 })).rows.map((d) => [d.alert_id, d.project])).toEqual([['everyone', 'acme']]);
  });

  it('names an alert\'s project that the config does not hold', () => {
    const document = {
      sandbox: { projects: 2 },
      projects: { acme: { project: '2' } },
      connections: [{ id: 'a', connector: 'spreadsheet', project: 'acme' }],
      alerts: [{ id: 'ops', type: 'webhook', url: 'https://example.test/hook', projects: ['acme', 'default', 'acne'] }],
    };
    let problems: string[] = [];
    try {
      validateConfig(document, { env: {} });
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems = error.problems;
    }
    expect(problems).toEqual(['alerts[0].projects[2]: "acne" is not a project (one of "default", "acme")']);
    const loaded = validateConfig({ ...document, alerts: [{ ...document.alerts[0], projects: 'acme' }] }, { env: {} });
    expect(loaded.alerts[0].projects).toEqual(['acme']);
  });
});
