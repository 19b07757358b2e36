import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ProjectId } from '../../auth/project-id.decorator';
import { SandboxAuthGuard } from '../../auth/sandbox-auth.guard';
import { badRequest } from '../../errors/sandbox-error';
import { plainTimestamp } from '../../storage/timestamps';
import { SandboxDocumentStore } from '../../storage/document-store';
import { bodyObject, Json } from '../../validation/body-checks';
import { success } from '../common/success';
import { PROXY_LEAD_KIND, ProxyLeadDoc } from './proxy-lead.types';

const FIELDS = ['title', 'name', 'phone', 'email', 'text', 'tracker'] as const;

/**
 * Sandbox only: the real service takes proxy leads from the website (forms, calls, the lead-catching widget);
 * this way in lets tests, demos and the lead-delivery benchmark make one, as a visitor would.
 */
@Controller('project/proxy-leads')
@UseGuards(SandboxAuthGuard)
export class ProxyLeadsAddController {
  constructor(private readonly store: SandboxDocumentStore) {}

  @Post('add')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Sandbox only: add a proxy lead',
    description:
      'Sandbox only (not an operation of the service, which takes proxy leads from the website). Body: ' +
      '{title, name, phone, email, text, tracker} (strings; tracker is the visit id). The lead appears in ' +
      'GET /project/proxy-leads with creation_date now (UTC) and an empty order_id. Answers {"status": "success", "id": "…"}.',
  })
  async add(@ProjectId() project: number, @Body() body: unknown) {
    const input = bodyObject(body);
    const lead: ProxyLeadDoc = {
      title: text(input, 'title'), text: text(input, 'text'), name: text(input, 'name'), phone: text(input, 'phone'),
      email: text(input, 'email'), tracker: text(input, 'tracker'), creation_date: plainTimestamp(), order_id: '',
    };
    if (!lead.phone && !lead.email && !lead.name) throw badRequest('phone', 'phone: a proxy lead needs a phone, an e-mail or a name');
    const stored = await this.store.insert(project, PROXY_LEAD_KIND, lead);
    return success({ id: stored.id });
  }
}

function text(body: Json, field: (typeof FIELDS)[number]): string {
  const value = body[field];
  if (value === undefined || value === null) return '';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') throw badRequest(field, `${field}: must be a string, got ${typeof value}`);
  return value.trim();
}
