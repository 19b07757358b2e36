import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ConnectionMoveResponse {
  @ApiProperty({ example: 'beta-crm' }) connection: string;
  @ApiProperty({ description: 'the project (its name in the config) it fed: its runs, rejections and alerts so far stay that project\'s', example: 'beta' })
  from: string;
  @ApiProperty({ description: 'the project it feeds now: its scoped tokens see the connection, and only what it makes from now on', example: 'acme' })
  to: string;
}

export class ConfigReloadResponse {
  @ApiProperty({ description: 'the config file read again', example: 'config/tracker-sync.yaml' }) file: string;
  @ApiProperty({ type: [String], description: 'connections the file has and the running config had not: their rows and schedules are made', example: ['crm-acme'] })
  added: string[];
  @ApiProperty({ type: [String], description: 'connections whose settings changed: their next runs and schedules use the new ones (runs in flight finish under the old)' })
  changed: string[];
  @ApiProperty({ type: [String], description: 'connections the file no longer has: their schedules stop, their history stays in the store' })
  removed: string[];
  @ApiProperty({ type: [ConnectionMoveResponse], description: 'connections (among changed) that feed another project now' })
  moved: ConnectionMoveResponse[];
  @ApiProperty({
    type: [String],
    description: 'sections other than connections that differ from the running config (server, store, tracker, sandbox, admin, log, alerts, ...): they take effect only at a restart',
    example: [],
  })
  restart_required: string[];
  @ApiPropertyOptional({
    description: 'cluster mode: how many other daemons took the request to read their own config file again (each logs its reload); absent without cluster.redis',
    example: 2,
  })
  other_daemons_asked?: number;
  @ApiPropertyOptional({ description: "cluster mode: why the other daemons could not be asked (the cluster's Redis did not answer); reload each of them" })
  other_daemons_error?: string;
}

export class ConfigReloadRefusedResponse {
  @ApiProperty({ example: 400 }) statusCode: number;
  @ApiProperty({ example: 'Bad Request' }) error: string;
  @ApiProperty({ example: 'the configuration config/tracker-sync.yaml was not reloaded (1 problem); the running one stays' }) message: string;
  @ApiProperty({ description: 'the config file read' }) file: string;
  @ApiProperty({
    type: [String],
    description: 'every problem of the file, each starting with its path',
    example: ['connections[1].schedule: "every minute" is not a cron expression (has 2 fields; expected 5 (minute hour day month weekday) or 6 (seconds first))'],
  })
  problems: string[];
}
