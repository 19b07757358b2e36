import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class DaemonRunResponse {
  @ApiProperty({ example: 'crm-acme' }) connection_id: string;
  @ApiProperty({ type: Number, nullable: true, description: 'null while the run is being recorded' }) run_id: number | null;
}

export class DaemonResponse {
  @ApiProperty({ description: 'instance id; the holder of its leases and runs', example: 'node-a~1f2e3d4c:4242:9a8b7c6d' }) id: string;
  @ApiProperty({ example: 'node-a' }) host: string;
  @ApiProperty() pid: number;
  @ApiProperty({ description: 'ISO-8601 UTC' }) started_at: string;
  @ApiProperty({ description: 'ISO-8601 UTC of its last heartbeat' }) heartbeat_at: string;
  @ApiProperty({ description: 'seconds since its last heartbeat' }) heartbeat_age_seconds: number;
  @ApiProperty({ description: 'the daemon answering this request' }) self: boolean;
  @ApiProperty({ type: [DaemonRunResponse], description: 'the connections it is running now' }) running: DaemonRunResponse[];
}

export class QueueJobResponse {
  @ApiProperty({ description: 'BullMQ job id' }) id: string;
  @ApiProperty({ description: 'job name' }) name: string;
  @ApiProperty({ type: String, nullable: true, example: 'crm-acme' }) connection_id: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'ISO-8601 UTC' }) started_at: string | null;
}

export class QueueWorkerResponse {
  @ApiProperty({ description: "the worker's name: its daemon's holder id (host~machine:pid:nonce, as on the run rows it records)" }) name: string;
  @ApiProperty({ description: "its Redis connection's address" }) addr: string;
  @ApiProperty() age_seconds: number;
  @ApiProperty() idle_seconds: number;
  @ApiProperty({ type: [QueueJobResponse], description: 'the runs it is working on now' }) jobs: QueueJobResponse[];
}

export class ClusterResponse {
  @ApiProperty({ description: 'id of the daemon answering' }) self: string;
  @ApiProperty({ description: 'daemons are listed while their heartbeat is younger than this' }) recent_seconds: number;
  @ApiProperty({ type: [DaemonResponse] }) daemons: DaemonResponse[];
  @ApiPropertyOptional({ enum: ['cluster'], description: 'cluster mode (cluster.redis): the workers are what BullMQ sees' }) mode?: 'cluster';
  @ApiPropertyOptional({ description: 'cluster mode: the queue the workers take runs from' }) queue?: string;
  @ApiPropertyOptional({ type: [QueueWorkerResponse], description: 'cluster mode: the daemons BullMQ sees as workers of the runs queue, with their jobs' })
  workers?: QueueWorkerResponse[];
}
