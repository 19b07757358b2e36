/**
 * One OpenAPI document per API, in the real daemon with its embedded sandbox: /docs (and /docs-json) is the
 * admin API alone; the sandbox's operations are under /sandbox/docs (and /sandbox/docs-json).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RunningDaemon, startDaemon, tempDir } from '../daemon/daemon-harness';

interface OpenApiDocument {
  info: { title: string };
  paths: Record<string, Record<string, unknown>>;
  components?: { securitySchemes?: Record<string, { type: string; in?: string; name?: string }> };
}

describe('OpenAPI documents of the daemon', () => {
  const dir = tempDir('openapi');
  let running: RunningDaemon;

  beforeAll(async () => {
    const config = join(dir.path, 'tracker-sync.yaml');
    writeFileSync(config, `data_dir: ${JSON.stringify(join(dir.path, 'data'))}\nsandbox: { seed: none }\nconnections: []\n`);
    running = await startDaemon({ ADMIN_TOKEN: 'openapi-test-token', LOG_LEVEL: 'error' }, config);
  }, 60_000);

  afterAll(async () => {
    await running?.stop();
    dir.remove();
  });

  async function json(path: string): Promise<OpenApiDocument> {
    const res = await fetch(running.url + path);
    expect(res.status).toBe(200);
    return (await res.json()) as OpenApiDocument;
  }

  it('shows the admin API only at /docs', async () => {
    const ui = await fetch(`${running.url}/docs`);
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain('swagger-ui');
    const doc = await json('/docs-json');
    const paths = Object.keys(doc.paths);
    expect(doc.info.title).toBe('tracker-sync admin API');
    expect(paths).toEqual(expect.arrayContaining(['/api/connections', '/api/connections/{id}/resync', '/api/runs/{id}/rejected']));
    expect(paths.filter((path) => path.startsWith('/sandbox'))).toEqual([]);
    expect(paths.filter((path) => !path.startsWith('/api/'))).toEqual(['/health', '/hooks/{connection}', '/hooks/{connection}/{secret}']);
  });

  it('documents POST /api/config/reload: what changed, or 400 with the problems by path', async () => {
    const doc = (await json('/docs-json')) as OpenApiDocument & { components: { schemas: Record<string, { properties: Record<string, unknown> }> } };
    const reload = doc.paths['/api/config/reload'] as { post?: { responses: Record<string, unknown> } };
    expect(Object.keys(reload.post?.responses ?? {}).sort()).toEqual(['200', '400', '401', '403']); // 403: a scoped token (admin.tokens)
    expect(Object.keys(doc.components.schemas.ConfigReloadResponse.properties).sort()).toEqual(['added', 'changed', 'file', 'moved', 'other_daemons_asked', 'other_daemons_error', 'removed', 'restart_required']);
    expect(Object.keys(doc.components.schemas.ConfigReloadRefusedResponse.properties)).toEqual(expect.arrayContaining(['message', 'problems']));
  });

  it('documents GET /api/projects and GET /api/connections?project=, and 403 where a scoped token is refused', async () => {
    const doc = (await json('/docs-json')) as OpenApiDocument & { components: { schemas: Record<string, { properties: Record<string, unknown> }> } };
    const projects = doc.paths['/api/projects'] as { get?: { responses: Record<string, unknown> } };
    expect(Object.keys(projects.get?.responses ?? {}).sort()).toEqual(['200', '401']);
    expect(Object.keys(doc.components.schemas.ProjectResponse.properties).sort()).toEqual(['budget', 'connections', 'last_runs', 'name', 'number', 'open_rejections']);
    const list = doc.paths['/api/connections'] as { get?: { parameters: { name: string; in: string }[] } };
    expect(list.get?.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'project', in: 'query' })]));
    const forbidden = (path: string, method: string) => Object.keys((doc.paths[path][method] as { responses: Record<string, unknown> }).responses).includes('403');
    expect([forbidden('/api/cluster', 'get'), forbidden('/api/connections/{id}/sync', 'post'), forbidden('/api/connections/{id}', 'get')]).toEqual([true, true, false]);
  });

  it('documents POST /api/connections/{id}/flows/{flow}: any flow of the registry, 202 and the run', async () => {
    const doc = await json('/docs-json');
    const route = doc.paths['/api/connections/{id}/flows/{flow}'] as { post?: { parameters: { name: string; schema?: { enum?: string[] } }[]; responses: Record<string, unknown> } };
    expect(Object.keys(route.post?.responses ?? {})).toEqual(expect.arrayContaining(['202', '400', '404', '409']));
    expect(route.post?.parameters.find((p) => p.name === 'flow')?.schema?.enum).toEqual(expect.arrayContaining(['write_back', 'leads']));
  });

  it("shows the embedded sandbox's operations at /sandbox/docs, under their mounted paths", async () => {
    const ui = await fetch(`${running.url}/sandbox/docs`);
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain('swagger-ui');
    const doc = await json('/sandbox/docs-json');
    const paths = Object.keys(doc.paths);
    expect(doc.info.title).toBe('tracker-sync sandbox');
    expect(paths).toEqual(expect.arrayContaining(['/sandbox/api/v1/project/add-orders', '/sandbox/api/v1/project/clients/import']));
    expect(doc.paths['/sandbox/api/v1/project/add-orders']).toHaveProperty('post');
    expect(paths.every((path) => path.startsWith('/sandbox/api/v1/'))).toBe(true);
    expect(doc.components?.securitySchemes?.['Api-key']).toMatchObject({ type: 'apiKey', in: 'header', name: 'Api-key' });
  });
});
