import { Module } from '@nestjs/common';
import { AdminServicesModule } from '../admin/admin-services.module';
import { AdminModule } from '../admin/admin.module';
import { ResyncEstimateController } from './resync-estimate.controller';
import { ResyncEstimateService } from './resync-estimate.service';
import { StatusPageController } from './status-page.controller';

/** The page at `/`, and the one admin route only it needs (the Resync confirmation's cost). */
@Module({
  imports: [AdminModule, AdminServicesModule],
  controllers: [StatusPageController, ResyncEstimateController],
  providers: [ResyncEstimateService],
})
export class StatusPageModule {}
