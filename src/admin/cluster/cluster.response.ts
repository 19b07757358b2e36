import { ApiProperty } from '@nestjs/swagger';

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

export class ClusterResponse {
  @ApiProperty({ description: 'id of the daemon answering' }) self: string;
  @ApiProperty({ description: 'daemons are listed while their heartbeat is younger than this' }) recent_seconds: number;
  @ApiProperty({ type: [DaemonResponse] }) daemons: DaemonResponse[];
}
