import { Module } from '@nestjs/common';
import { ApplicationModule } from '../application/application.module';
import { AdminModule } from '../admin/admin.module';
import { RequestBudgetController } from './request-budget.controller';
import { ResyncEstimateController } from './resync-estimate.controller';
import { ResyncEstimateService } from './resync-estimate.service';
import { StatusPageController } from './status-page.controller';

/** The page at `/`, and the admin routes only it needs (the Resync confirmation's cost, the request budget). */
@Module({
  imports: [AdminModule, ApplicationModule],
  controllers: [StatusPageController, ResyncEstimateController, RequestBudgetController],
  providers: [ResyncEstimateService],
})
export class StatusPageModule {}
