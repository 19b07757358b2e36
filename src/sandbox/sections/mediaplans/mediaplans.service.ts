import { Injectable } from '@nestjs/common';
import { badRequest, notFound } from '../../errors/sandbox-error';
import { SandboxDocumentStore, StoredDocument } from '../../storage/document-store';
import { ChannelsService } from '../channels/channels.service';
import { FieldReader } from '../common/field-reader';
import { MEDIAPLAN_KIND, METRIC_NAMES, MediaPlanDoc } from './mediaplan.types';
import { readMonthRange } from './month-range';

/** Monthly per-channel targets: list (one month), create, update (all fields), delete. */
@Injectable()
export class MediaPlansService {
  constructor(
    private readonly store: SandboxDocumentStore,
    private readonly channels: ChannelsService,
  ) {}

  async list(project: number, body: unknown): Promise<StoredDocument<MediaPlanDoc>[]> {
    const { date_from } = readMonthRange(FieldReader.ofListBody(body));
    return this.store.list<MediaPlanDoc>(project, MEDIAPLAN_KIND, (doc) => doc.date_from === date_from);
  }

  async create(project: number, body: unknown): Promise<string> {
    const plan = await this.readPlan(project, FieldReader.ofBody(body));
    return (await this.store.insert<MediaPlanDoc>(project, MEDIAPLAN_KIND, plan)).id;
  }

  /** Update takes the plan id plus every field of create (all required, as the specification says). */
  async update(project: number, body: unknown): Promise<void> {
    const reader = FieldReader.ofBody(body);
    const id = reader.requiredId('id');
    const plan = await this.readPlan(project, reader);
    if (!(await this.store.update<MediaPlanDoc>(project, MEDIAPLAN_KIND, id, plan))) throw notFound(`media plan ${id}`);
  }

  async delete(project: number, body: unknown): Promise<void> {
    const id = FieldReader.ofBody(body).requiredId('id');
    if (!(await this.store.remove(project, MEDIAPLAN_KIND, id))) throw notFound(`media plan ${id}`);
  }

  /** `channel` must be a channel of the project; `metrics` a non-empty list, each name once. */
  private async readPlan(project: number, reader: FieldReader): Promise<MediaPlanDoc> {
    const channel = reader.requiredString('channel');
    const range = readMonthRange(reader);
    const metrics = reader.objectItems('metrics').map((item) => ({
      name: item.requiredEnum('name', METRIC_NAMES), value: readMetricValue(item),
    }));
    if (metrics.length === 0) throw badRequest('metrics', 'metrics: at least one metric is required');
    const repeated = metrics.find((metric, index) => metrics.findIndex((other) => other.name === metric.name) !== index);
    if (repeated) throw badRequest('metrics', `metrics: "${repeated.name}" is given twice`);
    await this.channels.requireChannel(project, channel, 'channel');
    return { channel, ...range, metrics };
  }
}

function readMetricValue(item: FieldReader): number {
  const value = item.requiredInteger('value');
  if (value < 0) throw badRequest(item.path('value'), `${item.path('value')}: must not be negative, got ${value}`);
  return value;
}
