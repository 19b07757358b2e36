import { SandboxDocumentStore } from '../../src/sandbox/storage/document-store';
import { SandboxHarness } from './sandbox-harness';

/** The JSON document table the sections build on. */
describe('SandboxDocumentStore', () => {
  let sandbox: SandboxHarness;
  let store: SandboxDocumentStore;

  beforeAll(async () => {
    sandbox = await SandboxHarness.start({ seed: 'none' });
    store = sandbox.app.get(SandboxDocumentStore);
  });
  afterAll(() => sandbox.close());

  it('numbers documents per kind, skipping ids taken explicitly', async () => {
    expect(await store.insert(1, 'note', { text: 'a' })).toEqual({ text: 'a', id: '1' });
    expect((await store.insert(1, 'note', { text: 'b' })).id).toBe('2');
    expect((await store.insert(1, 'note', { text: 'explicit' }, '3')).id).toBe('3');
    expect((await store.insert(1, 'note', { text: 'c' })).id).toBe('4');
    expect((await store.insert(1, 'other', { text: 'x' })).id).toBe('1');
  });

  it('gets, lists with a predicate, updates, removes; projects do not see each other', async () => {
    await store.insert(2, 'note', { text: 'project two' }, 'p2');
    expect(await store.get(1, 'note', '2')).toEqual({ text: 'b', id: '2' });
    expect(await store.get(1, 'note', 'p2')).toBeNull();
    const listed = await store.list<{ text: string }>(1, 'note', (doc) => doc.text !== 'explicit');
    expect(listed.map((doc) => doc.id)).toEqual(['1', '2', '4']);
    expect(await store.update(1, 'note', '2', { text: 'B' })).toEqual({ text: 'B', id: '2' });
    expect(await store.update(1, 'note', 'missing', { text: 'B' })).toBeNull();
    expect(await store.remove(1, 'note', '2')).toBe(true);
    expect(await store.remove(1, 'note', '2')).toBe(false);
    expect((await store.list(2, 'note')).map((doc) => doc.id)).toEqual(['p2']);
  });
});
