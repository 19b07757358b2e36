import { Injectable } from '@nestjs/common';
import type { OrderStatusDefinition } from '../../tracker/types/orders.types';
import type { StatusType } from '../storage/order-status.entity';
import { SandboxPreparedSql } from '../storage/prepared-sql';
import { SandboxWriteLock } from '../storage/write-lock';

/**
 * A project's order status dictionary (outside the specification; shapes from public clients):
 * the ids add-orders accepts, each with its name and group. Read often (every add-orders batch), written
 * rarely (set-statuses), so each project's dictionary is cached and dropped on write.
 */
@Injectable()
export class OrderStatusesService {
  private readonly cache = new Map<number, Map<string, { name: string; type: StatusType }>>();

  constructor(private readonly sql: SandboxPreparedSql, private readonly lock: SandboxWriteLock) {}

  /** id → group, for add-orders (callers inside a transaction read through the same connection). */
  async types(projectId: number): Promise<Map<string, StatusType>> {
    const statuses = await this.load(projectId);
    return new Map([...statuses].map(([id, status]) => [id, status.type]));
  }

  /** The dictionary as status/list answers it, in id order. */
  async list(projectId: number): Promise<{ id: string; name: string; type: StatusType }[]> {
    const statuses = await this.load(projectId);
    return [...statuses].map(([id, status]) => ({ id, name: status.name, type: status.type }));
  }

  /**
   * Replaces the project's dictionary with `statuses` (the n8n community node: "This method replaces the project's
   * status dictionary, so it takes the complete list"). Orders already stored with an id no longer defined keep it;
   * the order list shows them with type `unused`, and add-orders counts such an id in `skipped_by_status`.
   */
  async set(projectId: number, statuses: OrderStatusDefinition[]): Promise<void> {
    await this.lock.run(async () => {
      await this.sql.transaction(async () => {
        await this.sql.run('DELETE FROM sb_order_status WHERE project_id = ?', [projectId]);
        await this.sql.bulkUpsert('sb_order_status', ['project_id', 'id', 'name', 'type'],
          statuses.map((status) => [projectId, status.id, status.name, status.type]), ['project_id', 'id'], ['name', 'type']);
      });
      // Inside the lock: the next add-orders batch (queued behind it) reads the new dictionary.
      this.cache.delete(projectId);
    });
  }

  private async load(projectId: number): Promise<Map<string, { name: string; type: StatusType }>> {
    let statuses = this.cache.get(projectId);
    if (!statuses) {
      const rows = await this.sql.all<{ id: string; name: string; type: StatusType }>(
        'SELECT id, name, type FROM sb_order_status WHERE project_id = ? ORDER BY rowid', [projectId]);
      statuses = new Map(rows.map((row) => [row.id, { name: row.name, type: row.type }]));
      this.cache.set(projectId, statuses);
    }
    return statuses;
  }
}
