import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { RunResponse } from '../answers/run.response';

export class ProjectBudgetResponse {
  @ApiProperty({ description: "this installation's share: requests a second" }) per_second: number;
  @ApiProperty({ description: "this installation's share: requests an hour (sliding)" }) per_hour: number;
  @ApiProperty({ description: 'send times taken in the coming second' }) used_this_second: number;
  @ApiProperty({ description: 'requests sent in the sliding hour' }) used_this_hour: number;
  @ApiProperty({ description: 'requests of this process waiting for the budget now' }) waiting: number;
}

export class ProjectOpenRejectionsResponse {
  @ApiProperty({ description: "open rejections of the project's connections" }) total: number;
  @ApiProperty({ description: 'per connection id (every connection of the project, 0 included)', example: { 'acme-amo': 3 } })
  by_connection: Record<string, number>;
}

export class ProjectResponse {
  @ApiProperty({ example: 'acme', description: 'the name under projects: (`default`: the tracker: project)' }) name: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: '12345', description: "the service's project number (null: the embedded sandbox's own)" })
  number: string | null;
  @ApiProperty({ type: [String], description: 'the ids of the connections feeding it, in config order' }) connections: string[];
  @ApiProperty({
    description: "each connection's last sync (null: none yet), by connection id",
    type: 'object',
    additionalProperties: { oneOf: [{ $ref: getSchemaPath(RunResponse) }], nullable: true },
  })
  last_runs: Record<string, RunResponse | null>;
  @ApiPropertyOptional({ type: ProjectBudgetResponse, nullable: true, description: "the project's request budget; null: none (rate_limit off)" })
  budget: ProjectBudgetResponse | null;
  @ApiProperty({ type: ProjectOpenRejectionsResponse }) open_rejections: ProjectOpenRejectionsResponse;
}

export class ProjectListResponse {
  @ApiProperty({ type: [ProjectResponse] }) projects: ProjectResponse[];
}
