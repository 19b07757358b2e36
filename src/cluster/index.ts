export { ClusterModule } from './cluster.module';
export { HeartbeatService } from './heartbeat.service';
export { DaemonStore } from '../store/repositories/daemon.store';
export * from './heartbeat-options';
