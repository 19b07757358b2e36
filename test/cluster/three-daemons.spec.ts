/**
 * Three daemon processes, one PostgreSQL store, one standalone sandbox as the service; 30 connections on
 * "* * * * *": lease mode (the PostgreSQL store alone). Cluster mode's run of the same test is
 * three-daemons-cluster.spec.ts (two files, so that the two run side by side). See support/three-daemons-suite.ts.
 */
import { describePostgres } from '../support/store-drivers';
import { threeDaemons } from './support/three-daemons-suite';

describePostgres('cluster: three daemons on one PostgreSQL', () => threeDaemons('leases'));
