import fs from 'node:fs';
import path from 'node:path';
import { TRACKER_OPERATIONS, TrackerClient } from '../../src/tracker';

/** The specification lives beside the project: ../shared/seeds/*.txt from the project root. */
function readSpec(): string {
  const dir = path.resolve(__dirname, '../../../shared/seeds');
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.txt'));
  if (!file) throw new Error(`no specification .txt in ${dir}`);
  return fs.readFileSync(path.join(dir, file), 'utf8');
}

function specOperations(spec: string): string[] {
  return [...spec.matchAll(/^\*\*(GET|POST) (\/[^*\s]+)\*\*/gm)].map((m) => `${m[1]} ${m[2]}`);
}

function resolveMethod(client: TrackerClient, clientMethod: string): unknown {
  const [section, method] = clientMethod.split('.');
  const sub = (client as unknown as Record<string, Record<string, unknown>>)[section];
  return sub?.[method];
}

describe('coverage of the specification', () => {
  const fromSpec = specOperations(readSpec());
  const client = new TrackerClient({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', project: '1', rateLimit: 'off' });
  afterAll(() => client.close());

  it('finds the 55 operations in the specification', () => {
    expect(fromSpec).toHaveLength(55);
    expect(new Set(fromSpec).size).toBe(55);
  });

  it('has exactly one TRACKER_OPERATIONS entry for every operation of the spec', () => {
    const declared = TRACKER_OPERATIONS.map((op) => `${op.method} ${op.path}`);
    expect(declared.filter((d) => !fromSpec.includes(d))).toEqual([]);
    expect(fromSpec.filter((s) => !declared.includes(s))).toEqual([]);
    expect(new Set(declared).size).toBe(declared.length);
  });

  it('has a client method for every operation', () => {
    const missing = TRACKER_OPERATIONS.filter((op) => typeof resolveMethod(client, op.clientMethod) !== 'function');
    expect(missing.map((op) => op.clientMethod)).toEqual([]);
    expect(new Set(TRACKER_OPERATIONS.map((op) => op.clientMethod)).size).toBe(55);
  });
});
