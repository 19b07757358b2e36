/**
 * Three daemon processes, one PostgreSQL store, one standalone sandbox as the service; 30 connections on
 * "* * * * *": lease mode (the PostgreSQL store alone). Cluster mode's run of the same test is
 * cluster-mode-daemons.spec.ts (beside the queue's own three-daemon test). See support/three-daemons-suite.ts.
 */
import { describePostgres } from '../support/store-drivers';
import { threeDaemons } from './support/three-daemons-suite';

describePostgres('cluster: three daemons on one PostgreSQL', () => threeDaemons('leases'));
