import { Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AdminController } from '../admin-controller.decorator';
import { ClusterResponse } from './cluster.response';
import { ClusterStatusService } from './cluster-status.service';
import { AdminScope } from '../auth/admin-scope.decorator';

@AdminController('cluster')
export class ClusterController {
  constructor(private readonly cluster: ClusterStatusService) {}

  @Get()
  @AdminScope('installation')
  @ApiOperation({ summary: 'daemons sharing the store (seen recently by heartbeat) and the connections each is running' })
  @ApiOkResponse({ type: ClusterResponse })
  status(): Promise<ClusterResponse> {
    return this.cluster.status();
  }
}
