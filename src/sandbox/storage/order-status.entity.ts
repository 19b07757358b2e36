import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { StatusType } from '../../tracker/types/common.types';

export type { StatusType };

/** An order status id known to a project, mapped to its group. */
@Entity('sb_order_status')
export class SandboxOrderStatusEntity {
  @PrimaryColumn({ name: 'project_id', type: 'integer' })
  projectId: number;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  id: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 16 })
  type: StatusType;
}
