import { managerToInput } from '../../../src/engine/mappings/managers';
import { managersHandler } from '../../../src/engine/pipeline/sending/managers';
import { FakeTrackerService } from '../../support/fake-tracker-service';
import { testTracker } from '../../support/engine-harness';

describe('managers stream: mapping and handler (a loopback service)', () => {
  let service: FakeTrackerService;
  let tracker: ReturnType<typeof testTracker>;
  const log: string[] = [];
  const ctx = () => ({ tracker, connectionId: 'c1', log: (m: string) => void log.push(m) });

  beforeEach(async () => {
    service = new FakeTrackerService();
    tracker = testTracker(await service.start());
  });
  afterEach(async () => {
    await tracker.close();
    await service.stop();
  });

  it('maps a manager with absent phone and email as null', () => {
    expect(managerToInput({ id: 'm1', name: 'Anna' })).toEqual({ id: 'm1', name: 'Anna', phone: null, email: null });
  });

  it('adds a new manager, updates a known one, and falls back to the other call when the service disagrees', async () => {
    const item = (id: string, name: string, known: boolean) => ({ externalId: id, payload: managerToInput({ id, name }), known });
    await managersHandler.send(ctx(), [item('m1', 'Anna', false)]);
    await managersHandler.send(ctx(), [item('m1', 'Anna B', true), item('m2', 'Boris', true), item('m1', 'Anna C', false)]);
    expect([...service.managers.values()].map((m) => `${m.id} ${m.name}`)).toEqual(['m1 Anna C', 'm2 Boris']);
    expect(service.calls.map((c) => c.path.split('/').pop())).toEqual(['add', 'update', 'update', 'add', 'add', 'update']);
  });

  it('deletes the managers gone from the source and tells which it deleted', async () => {
    await managersHandler.send(ctx(), [{ externalId: 'm1', payload: managerToInput({ id: 'm1', name: 'Anna' }), known: false }]);
    expect(await managersHandler.onCompleteRead!(ctx(), ['m1', 'm9'])).toEqual(['m1', 'm9']);
    expect(service.managers.size).toBe(0);
  });
});
