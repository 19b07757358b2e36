export * from './alert-dispatcher';
export * from './alert-evaluator';
export * from './alert-notice';
export * from './alert-secrets';
export * from './alerts.module';
export * from './alerts.service';
export * from './run-conditions';
