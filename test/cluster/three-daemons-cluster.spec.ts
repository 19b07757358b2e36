/**
 * The three-daemon test (support/three-daemons-suite.ts) in cluster mode (`cluster.redis`): runs as BullMQ jobs,
 * a SIGKILLed daemon's jobs taken over by the others when they stall.
 */
import { describeCluster } from '../support/redis-server';
import { threeDaemons } from './support/three-daemons-suite';

describeCluster('cluster: three daemons on one PostgreSQL, in cluster mode (BullMQ)', () => threeDaemons('queue'));
