import { DataSource } from 'typeorm';
import { WebhookCallEntity } from '../entities/webhook-call.entity';
import type { WebhookCallRow } from '../records';
import { SerialWriter } from '../serial-writer';

export interface WebhookCallRecord {
  connectionId: string;
  at: Date;
  outcome: string;
  /** the last accepted call (null: keep the stored one) */
  acceptedAt: Date | null;
  /** the project (its name in the config) the connection feeds as the call comes */
  project?: string | null;
}

/** The last webhook call per connection (`webhook_call`, WebhookCallRow): one upsert per call, read by the status page. */
export class WebhookCallStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly writer: SerialWriter,
  ) {}

  async record(call: WebhookCallRecord): Promise<void> {
    const at = call.at.toISOString();
    await this.writer.run(async (manager) => {
      const repo = manager.getRepository(WebhookCallEntity);
      const existing = await repo.findOneBy({ connection_id: call.connectionId });
      // a call accepted while the connection id was another project's is not this project's to show (one from
      // before projects were recorded counts as the connection's project)
      const sameProject = (existing?.project ?? call.project ?? null) === (call.project ?? null);
      const kept = existing && sameProject ? existing.last_accepted_at : '';
      await repo.save({
        connection_id: call.connectionId,
        last_call_at: at,
        last_outcome: call.outcome,
        last_accepted_at: call.acceptedAt ? call.acceptedAt.toISOString() : kept,
        project: call.project ?? null,
      });
    });
  }

  async list(): Promise<WebhookCallRow[]> {
    return this.dataSource.getRepository(WebhookCallEntity).find({ order: { connection_id: 'ASC' } });
  }
}
