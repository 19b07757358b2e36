export { ClusterController } from './cluster.controller';
export { ClusterStatusService } from './cluster-status.service';
export * from './cluster.response';
