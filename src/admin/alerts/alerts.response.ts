import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ALERT_DELIVERY_STATUSES } from '../../store';

export class AlertTargetResponse {
  @ApiProperty({ example: 'ops' }) id: string;
  @ApiProperty({ enum: ['webhook', 'slack', 'telegram', 'email'] }) type: string;
  @ApiProperty({ description: 'where it goes, secrets masked', example: 'https://hooks.slack.com/***' }) target: string;
  @ApiProperty({ type: [String], example: ['*'] }) connections: string[];
  @ApiProperty({ type: [String], required: false, description: 'the projects it watches (absent: every project)', example: ['acme'] }) projects?: string[];
  @ApiProperty({ type: [String] }) events: string[];
}

export class ActiveAlertResponse {
  @ApiProperty({ example: 'ops' }) alert_id: string;
  @ApiProperty({ example: 'crm-acme' }) connection_id: string;
  @ApiProperty({ example: 'run_failed' }) event: string;
  @ApiProperty({ type: String, nullable: true, example: 'leads', description: "the outbound flow whose runs the condition watches; null: the connection's syncs" })
  flow: string | null;
  @ApiProperty({ description: 'ISO-8601 UTC: first alerted' }) since: string;
  @ApiProperty({ description: "ISO-8601 UTC of the last alert or reminder delivered (the channel took it); '' while none was" }) last_sent_at: string;
  @ApiProperty({ type: Number, nullable: true }) run_id: number | null;
  @ApiProperty() message: string;
  @ApiProperty({ enum: ['sent', 'pending', 'failed'], description: "the condition's last send: delivered, being delivered, or failed after its attempts (tried again at retry_at)" })
  delivery: 'sent' | 'pending' | 'failed';
  @ApiProperty({ description: 'deliveries of it failed in a row (0 once one is delivered)' }) delivery_failures: number;
  @ApiProperty({ type: String, nullable: true, description: 'ISO-8601 UTC: when a failed delivery is tried again (at the check after it)' }) retry_at: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'why the last delivery failed' }) last_error: string | null;
}

export class AlertDeliveryResponse {
  @ApiProperty() id: number;
  @ApiProperty({ example: 'ops' }) alert_id: string;
  @ApiProperty({ example: 'webhook' }) type: string;
  @ApiProperty({ description: 'run_failed, recovered, no_success_for, without_visit_share, rejected_share, skipped_share or test' }) event: string;
  @ApiProperty({ type: String, nullable: true }) connection_id: string | null;
  @ApiProperty({ type: Number, nullable: true }) run_id: number | null;
  @ApiProperty({ description: 'a reminder of a condition still active' }) reminder: boolean;
  @ApiProperty() message: string;
  @ApiProperty({ enum: [...ALERT_DELIVERY_STATUSES], description: 'pending while attempts go on' }) status: string;
  @ApiProperty() attempts: number;
  @ApiProperty({ type: String, nullable: true, description: 'why the last attempt failed' }) last_error: string | null;
  @ApiProperty({ description: 'ISO-8601 UTC' }) created_at: string;
  @ApiProperty({ type: String, nullable: true, description: 'ISO-8601 UTC, once delivered' }) sent_at: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'the project (its name in the config) the connection fed; null for messages from before projects were recorded' })
  project?: string | null;
}

export class AlertListResponse {
  @ApiProperty({ type: [AlertTargetResponse], description: 'the configured alerts' }) alerts: AlertTargetResponse[];
  @ApiProperty({ type: [ActiveAlertResponse], description: 'conditions alerted and not recovered yet' }) active: ActiveAlertResponse[];
  @ApiProperty({ type: [AlertDeliveryResponse], description: 'messages, newest first' }) deliveries: AlertDeliveryResponse[];
  @ApiProperty({ description: 'deliveries matching the filters' }) total: number;
  @ApiProperty() limit: number;
  @ApiProperty() offset: number;
}

export class AlertTestResponse {
  @ApiProperty({ example: 'ops' }) alert_id: string;
  @ApiProperty({ example: 'webhook' }) type: string;
  @ApiProperty({ enum: ['sent', 'failed'] }) status: string;
  @ApiProperty() attempts: number;
  @ApiProperty({ type: String, nullable: true, description: 'why it was not delivered' }) error: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'its row in GET /api/alerts' }) delivery_id: number | null;
}
