import { IsIn, IsOptional } from 'class-validator';
import { LeadRequestDefinition } from './lead-delivery-definition';

/**
 * One CRM action (`settings.<flow>.actions.<name>`): a request as lead delivery's steps are, and what it does.
 * `read`: a look-up (retried, every page); `write`: a create, sent once (a lost answer is looked up by the flow);
 * `update`: sets values, so sending it again changes nothing (retried as reads are). Default: a GET, or an action
 * with a paginator, reads; any other writes (HubSpot's batch read is a POST that reads: `kind: read`).
 */
export class CrmActionDefinition extends LeadRequestDefinition {
  @IsOptional() @IsIn(['read', 'write', 'update']) kind?: 'read' | 'write' | 'update';
}
