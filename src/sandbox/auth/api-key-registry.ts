import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SandboxApiKeyEntity } from '../storage/api-key.entity';
import { InjectSandboxDataSource } from '../storage/sandbox-data-source';

/**
 * Keys and their projects, cached: every request checks its key, and a database round trip per
 * request is a measurable share of a busy ingest. Unknown keys are not cached (a key added later
 * works at once); writers of keys call `forget` so that a grant takes effect at once.
 */
@Injectable()
export class ApiKeyRegistry {
  private readonly known = new Map<string, number[]>();

  constructor(@InjectSandboxDataSource() private readonly dataSource: DataSource) {}

  async projectsOf(apiKey: string): Promise<number[] | null> {
    const cached = this.known.get(apiKey);
    if (cached) return cached;
    const row = await this.dataSource.getRepository(SandboxApiKeyEntity).findOneBy({ key: apiKey });
    if (!row) return null;
    this.known.set(apiKey, row.projects);
    return row.projects;
  }

  forget(apiKey: string): void {
    this.known.delete(apiKey);
  }
}
