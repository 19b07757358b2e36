import { Module } from '@nestjs/common';
import { AdminModule } from '../admin/admin.module';
import { ApplicationModule } from '../application/application.module';
import { WebhookCallsController } from './webhook-calls.controller';
import { WebhookMetrics } from './webhook-metrics';
import { WebhookReceiver } from './webhook-receiver.service';
import { WebhooksController } from './webhooks.controller';

/**
 * CRM webhooks: POST /hooks/{connection}[/{secret}] (no admin token, each call verified), a debounce per
 * connection, and runs through the one trigger path. The daemon mounts the raw-body parser (webhook-body.ts).
 */
@Module({
  imports: [ApplicationModule, AdminModule],
  controllers: [WebhooksController, WebhookCallsController],
  providers: [WebhookReceiver, WebhookMetrics],
  exports: [WebhookReceiver],
})
export class WebhooksModule {}
