import { Get, Param } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AdminController } from '../admin/admin-controller.decorator';
import { ResyncEstimateResponse } from './resync-estimate.response';
import { ResyncEstimateService } from './resync-estimate.service';
import { AdminScope } from '../admin/auth/admin-scope.decorator';

/** What the status page's Resync confirmation says before a full run is started. */
@AdminController('connections')
export class ResyncEstimateController {
  constructor(private readonly estimates: ResyncEstimateService) {}

  @Get(':id/resync-estimate')
  @AdminScope('connection')
  @ApiOperation({ summary: "what a full resync costs: requests, and their share of the service's hourly budget" })
  @ApiOkResponse({ type: ResyncEstimateResponse })
  @ApiNotFoundResponse({ description: 'unknown connection' })
  estimate(@Param('id') id: string): Promise<ResyncEstimateResponse> {
    return this.estimates.estimate(id);
  }
}
