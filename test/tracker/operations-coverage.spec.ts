import { SPEC_OPERATIONS, TRACKER_OPERATIONS, TrackerClient } from '../../src/tracker';
import serviceOperations from '../fixtures/tracker/service-operations.json';

/**
 * The service's operations as data (test/fixtures/tracker/service-operations.json: section, method and
 * path of each, taken from the specification's Endpoints chapter). The client is held to this list.
 */
interface ServiceOperation {
  section: string;
  method: string;
  path: string;
}

const fromSpec: ServiceOperation[] = serviceOperations.operations;
const key = (op: { method: string; path: string }) => `${op.method} ${op.path}`;

function resolveMethod(client: TrackerClient, clientMethod: string): unknown {
  const [section, method] = clientMethod.split('.');
  const sub = (client as unknown as Record<string, Record<string, unknown>>)[section];
  return sub?.[method];
}

describe('coverage of the specification', () => {
  const client = new TrackerClient({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', project: '1', rateLimit: 'off' });
  afterAll(() => client.close());

  it('lists the 55 operations of the specification, each once, with its section', () => {
    expect(fromSpec).toHaveLength(55);
    expect(new Set(fromSpec.map(key)).size).toBe(55);
    for (const op of fromSpec) {
      expect(op.section).toMatch(/\S/);
      expect(['GET', 'POST']).toContain(op.method);
      expect(op.path).toMatch(/^\/[\w/{}-]+$/);
    }
  });

  it('has exactly one TRACKER_OPERATIONS entry for every operation of the spec', () => {
    const spec = fromSpec.map(key);
    const declared = SPEC_OPERATIONS.map(key);
    expect(declared.filter((d) => !spec.includes(d))).toEqual([]);
    expect(spec.filter((s) => !declared.includes(s))).toEqual([]);
    expect(new Set(declared).size).toBe(declared.length);
    expect(new Set(TRACKER_OPERATIONS.map(key)).size).toBe(TRACKER_OPERATIONS.length);
  });

  it('marks the operations known only from public clients as outside the specification, each with its source', () => {
    const outside = TRACKER_OPERATIONS.filter((op) => op.outsideSpec);
    expect(outside.map((op) => op.clientMethod).sort()).toEqual(['orders.listStatuses', 'orders.setStatuses']);
    for (const op of outside) {
      expect(fromSpec.map(key)).not.toContain(key(op));
      expect(op.outsideSpec?.source).toMatch(/public clients: \S/);
    }
  });

  it('has a client method for every operation', () => {
    const missing = TRACKER_OPERATIONS.filter((op) => typeof resolveMethod(client, op.clientMethod) !== 'function');
    expect(missing.map((op) => op.clientMethod)).toEqual([]);
    expect(new Set(TRACKER_OPERATIONS.map((op) => op.clientMethod)).size).toBe(TRACKER_OPERATIONS.length);
  });

  it("groups the client's methods as the specification groups its operations: one section per client section", () => {
    const sectionOf = new Map(fromSpec.map((op) => [key(op), op.section]));
    const specSections = new Map<string, Set<string>>();
    for (const op of SPEC_OPERATIONS) {
      const clientSection = op.clientMethod.split('.')[0];
      const sections = specSections.get(clientSection) ?? new Set<string>();
      sections.add(sectionOf.get(key(op)) ?? '(not in the spec)');
      specSections.set(clientSection, sections);
    }
    const mixed = [...specSections].filter(([, sections]) => sections.size > 1).map(([name, sections]) => `${name}: ${[...sections].join(', ')}`);
    expect(mixed).toEqual([]);
  });
});
