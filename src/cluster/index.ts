export { ClusterModule } from './cluster.module';
export { HeartbeatService } from './heartbeat.service';
export { DaemonRegistry } from './daemon-registry';
export * from './heartbeat-options';
