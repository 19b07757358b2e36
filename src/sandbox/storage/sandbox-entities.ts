import { SandboxApiKeyEntity } from './api-key.entity';
import { SandboxClientEntity } from './client.entity';
import { SandboxCounterEntity } from './counter.entity';
import { SandboxDocumentEntity } from './document.entity';
import { SandboxManagerEntity } from './manager.entity';
import { SandboxOrderStatusEntity } from './order-status.entity';
import { SandboxOrderEntity } from './order.entity';
import { SandboxPendingOrderEntity } from './pending-order.entity';
import { SandboxProjectEntity } from './project.entity';
import { SandboxTrackingCodeEntity } from './tracking-code.entity';
import { SandboxVisitEntity } from './visit.entity';

export const SANDBOX_ENTITIES = [
  SandboxApiKeyEntity, SandboxClientEntity, SandboxCounterEntity, SandboxDocumentEntity, SandboxManagerEntity,
  SandboxOrderStatusEntity, SandboxOrderEntity, SandboxPendingOrderEntity, SandboxProjectEntity,
  SandboxTrackingCodeEntity, SandboxVisitEntity,
];
