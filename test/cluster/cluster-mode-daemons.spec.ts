/**
 * Cluster mode (`cluster.redis`) with three daemons, the two heavy tests in one file so that they run one after
 * the other (each runs three daemons and a sandbox, and times ticks and takeovers): the queue's own test
 * (support/queue-cluster-suite.ts: every tick once, a SIGKILL taken over within 30 s, 200 webhook calls) and the
 * three-daemon test of lease mode run in cluster mode (support/three-daemons-suite.ts).
 */
import { describeCluster } from '../support/redis-server';
import { queueClusterSuite } from './support/queue-cluster-suite';
import { threeDaemons } from './support/three-daemons-suite';

describeCluster('cluster mode: three daemons on PostgreSQL and Redis (BullMQ)', queueClusterSuite);
describeCluster('cluster: three daemons on one PostgreSQL, in cluster mode (BullMQ)', () => threeDaemons('queue'));
