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
      await repo.save({
        connection_id: call.connectionId,
        last_call_at: at,
        last_outcome: call.outcome,
        last_accepted_at: call.acceptedAt ? call.acceptedAt.toISOString() : (existing?.last_accepted_at ?? ''),
      });
    });
  }

  async list(): Promise<WebhookCallRow[]> {
    return this.dataSource.getRepository(WebhookCallEntity).find({ order: { connection_id: 'ASC' } });
  }
}
