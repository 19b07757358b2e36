import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { AlertsModule } from '../alerts/alerts.module';
import { ClusterModule } from '../cluster/cluster.module';
import { ApplicationModule } from '../application/application.module';
import { AlertsController } from './alerts/alerts.controller';
import { AdminAuthGuard } from './auth/admin-auth.guard';
import { AdminAuthMiddleware } from './auth/admin-auth.middleware';
import { AdminTokenService } from './auth/admin-token.service';
import { ClusterController } from './cluster/cluster.controller';
import { ClusterStatusService } from './cluster/cluster-status.service';
import { ConfigController } from './config/config.controller';
import { ConnectionsController } from './connections/connections.controller';
import { AdminExceptionFilter } from './errors/admin-exception.filter';
import { ProjectsController } from './projects/projects.controller';
import { RunsController } from './runs/runs.controller';
import { SessionController } from './session/session.controller';
import { RedactAnswersInterceptor } from './secrets/redact-answers.interceptor';

/** The admin REST API under /api (bearer token, validated DTOs, answers scrubbed of secrets). */
@Module({
  imports: [ApplicationModule, ClusterModule, AlertsModule],
  controllers: [ConnectionsController, RunsController, ProjectsController, ClusterController, AlertsController, ConfigController, SessionController],
  providers: [ClusterStatusService, AdminTokenService, AdminAuthGuard, AdminAuthMiddleware, AdminExceptionFilter, RedactAnswersInterceptor],
  exports: [AdminTokenService],
})
export class AdminModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(AdminAuthMiddleware)
      .forRoutes({ path: 'api', method: RequestMethod.ALL }, { path: 'api/*path', method: RequestMethod.ALL });
  }
}
