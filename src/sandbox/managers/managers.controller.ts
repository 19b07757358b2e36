import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ProjectId } from '../auth/project-id.decorator';
import { badRequest, notFound } from '../errors/sandbox-error';
import { SandboxManagerEntity } from '../storage/manager.entity';
import { InjectSandboxDataSource } from '../storage/sandbox-data-source';
import { SandboxWriteLock } from '../storage/write-lock';
import { Json, bodyObject, optionalString, requireId, requireString } from '../validation/body-checks';

/** Managers: add (phone or e-mail must be given), list, update (only the given fields), delete. */
@Controller('project/integration/manager')
export class ManagersController {
  constructor(@InjectSandboxDataSource() private readonly dataSource: DataSource, private readonly lock: SandboxWriteLock) {}

  @Post('add')
  @HttpCode(200)
  async add(@ProjectId() projectId: number, @Body() rawBody: unknown) {
    const body = bodyObject(rawBody);
    const manager = {
      projectId, id: requireId(body, 'id'), name: requireString(body, 'name'),
      phone: optionalString(body, 'phone') ?? null, email: optionalString(body, 'email') ?? null,
    };
    if (!manager.phone && !manager.email) throw badRequest('phone', 'phone or email: one of them must be given');
    await this.lock.run(() => this.repository().save(manager));
    return { status: 'success' };
  }

  /** The list shows `id` as an integer (CRM ids that are not numeric stay strings). */
  @Post('list')
  @HttpCode(200)
  async list(@ProjectId() projectId: number) {
    const rows = await this.repository().find({ where: { projectId } });
    const data = rows.map((row) => ({
      id: /^\d+$/.test(row.id) ? Number(row.id) : row.id, name: row.name, email: row.email ?? '', phone: row.phone ?? '',
    }));
    return { data, total: data.length, status: 'success' };
  }

  @Post('update')
  @HttpCode(200)
  async update(@ProjectId() projectId: number, @Body() rawBody: unknown) {
    const body = bodyObject(rawBody);
    const id = requireId(body, 'id');
    const patch = changedFields(body);
    await this.lock.run(async () => {
      const existing = await this.repository().findOneBy({ projectId, id });
      if (!existing) throw notFound(`manager ${id}`);
      await this.repository().save({ ...existing, ...patch });
    });
    return { status: 'success' };
  }

  @Post('delete')
  @HttpCode(200)
  async delete(@ProjectId() projectId: number, @Body() rawBody: unknown) {
    const id = requireId(bodyObject(rawBody), 'id');
    const result = await this.lock.run(() => this.repository().delete({ projectId, id }));
    if (!result.affected) throw notFound(`manager ${id}`);
    return { status: 'success' };
  }

  private repository() {
    return this.dataSource.getRepository(SandboxManagerEntity);
  }
}

function changedFields(body: Json): Partial<SandboxManagerEntity> {
  const patch: Partial<SandboxManagerEntity> = {};
  if (body.name !== undefined) patch.name = requireString(body, 'name');
  if (body.phone !== undefined) patch.phone = optionalString(body, 'phone') ?? null;
  if (body.email !== undefined) patch.email = optionalString(body, 'email') ?? null;
  return patch;
}
