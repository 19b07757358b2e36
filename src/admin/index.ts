export { AdminModule } from './admin.module';
export { setupOpenApi, DOCS_PATH } from './openapi';
export { AdminTokenService } from './auth/admin-token.service';
export { ADMIN_TOKEN_FILE, readOrCreateTokenFile } from '../config/admin-token-file';
// the application layer the admin API answers from (src/application/), as it was reachable from here before
export * from '../application';
