import { Get, Inject, Optional, ServiceUnavailableException } from '@nestjs/common';
import { RUNS_QUEUE, RunsQueueView } from '../../cluster/runs-queue-view';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AdminController } from '../admin-controller.decorator';
import { ClusterResponse } from './cluster.response';
import { ClusterStatusService } from './cluster-status.service';
import { AdminScope } from '../auth/admin-scope.decorator';

@AdminController('cluster')
export class ClusterController {
  constructor(
    private readonly cluster: ClusterStatusService,
    @Optional() @Inject(RunsQueueView) private readonly queue: RunsQueueView | null,
  ) {}

  @Get()
  @AdminScope('installation')
  @ApiOperation({ summary: 'daemons sharing the store (seen recently by heartbeat) and the connections each is running; in cluster mode the workers BullMQ sees, with their jobs' })
  @ApiOkResponse({ type: ClusterResponse })
  async status(): Promise<ClusterResponse> {
    const status = await this.cluster.status();
    if (!this.queue) return status;
    try {
      return { ...status, mode: 'cluster', queue: RUNS_QUEUE, workers: await this.queue.workers() };
    } catch (error) {
      throw new ServiceUnavailableException(`Redis (cluster.redis) did not answer: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
