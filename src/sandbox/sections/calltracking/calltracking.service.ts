import { Injectable } from '@nestjs/common';
import { SandboxError, notFound, notFoundError } from '../../errors/sandbox-error';
import { SandboxDocumentStore, StoredDocument } from '../../storage/document-store';
import { FieldReader } from '../common/field-reader';
import { asResponseTimestamp } from '../common/service-time';
import {
  readCreateIntegration, readCreateOptions, readCreationDate, readUpdateIntegration, readUpdateOptions,
} from './script-input';
import { SCRIPT_KIND, ScriptDoc } from './script.types';

/**
 * Call tracking scripts and their state table:
 *   none --create(is_enabled=1)--> enabled; none --create(is_enabled=0)--> created, not enabled;
 *   enabled <--update(is_enabled)--> not enabled (deactivated, not deleted);
 *   enabled | not enabled --delete--> deleted (listed only with is_deleted=1; no further change).
 */
@Injectable()
export class CalltrackingService {
  constructor(private readonly store: SandboxDocumentStore) {}

  async create(project: number, body: unknown): Promise<Record<string, unknown>> {
    const reader = FieldReader.ofBody(body);
    const name = reader.requiredString('name');
    const isEnabled = reader.requiredFlag('is_enabled');
    const creationDate = readCreationDate(reader);
    const doc = await this.store.insert<ScriptDoc>(project, SCRIPT_KIND, {
      name, creation_date: creationDate, is_enabled: isEnabled, is_deleted: 0, call_count: 0, accuracy: null,
      options: readCreateOptions(reader), integration: readCreateIntegration(reader),
    });
    return toScript(doc, project, 'create');
  }

  /** `is_deleted` 0 (default) lists existing scripts, 1 deleted ones. */
  async list(project: number, isDeleted: 0 | 1): Promise<Record<string, unknown>[]> {
    const docs = await this.store.list<ScriptDoc>(project, SCRIPT_KIND, (doc) => doc.is_deleted === isDeleted);
    return docs.map((doc) => toScript(doc, project, 'list'));
  }

  /** Only given fields change; a deleted script cannot be changed. */
  async update(project: number, body: unknown): Promise<void> {
    const reader = FieldReader.ofBody(body);
    const current = await this.existing(project, reader.requiredId('id'));
    const patch: Partial<ScriptDoc> = {};
    const name = reader.optionalString('name');
    if (name !== undefined) patch.name = name;
    const isEnabled = reader.optionalFlag('is_enabled');
    if (isEnabled !== undefined) patch.is_enabled = isEnabled;
    const options = readUpdateOptions(reader, current.options);
    if (options) patch.options = options;
    const integration = readUpdateIntegration(reader, current.integration);
    if (integration) patch.integration = integration;
    await this.store.update<ScriptDoc>(project, SCRIPT_KIND, current.id, patch);
  }

  /** Delete keeps the document, marked deleted and no longer enabled, for the is_deleted=1 list. */
  async delete(project: number, body: unknown): Promise<void> {
    const current = await this.existing(project, FieldReader.ofBody(body).requiredId('id'));
    await this.store.update<ScriptDoc>(project, SCRIPT_KIND, current.id, { is_deleted: 1, is_enabled: 0 });
  }

  private async existing(project: number, id: string): Promise<StoredDocument<ScriptDoc>> {
    const doc = await this.store.get<ScriptDoc>(project, SCRIPT_KIND, id);
    if (!doc) throw notFound(`call tracking script ${id}`);
    if (doc.is_deleted === 1) throw notFoundError(`call tracking script ${id} is deleted`);
    return doc;
  }
}

/**
 * The answer shape. The list form differs as the specification says: `redirect.sip_trunk_postfix`
 * appears only there, and `integration.is_lead_auto_create` is the string "1"/"0".
 */
export function toScript(doc: StoredDocument<ScriptDoc>, project: number, form: 'create' | 'list'): Record<string, unknown> {
  const { replaceable_numbers: _kept, ...options } = doc.options;
  const redirect = form === 'list'
    ? { ...options.redirect, sip_trunk_postfix: options.redirect.type === 'sip_trunk' ? sipPostfix(project, doc.id) : null }
    : options.redirect;
  const integration = doc.integration;
  return {
    id: Number(doc.id),
    name: doc.name,
    // Scripts stored before the date was normalized kept the request's text: answer those in the response form too.
    creation_date: asResponseTimestamp(doc.creation_date),
    is_enabled: doc.is_enabled,
    call_count: doc.call_count,
    accuracy: doc.accuracy,
    needed_phone_count: null,
    options: { ...options, redirect },
    integration: {
      ...integration,
      is_lead_auto_create: form === 'list' ? String(integration.is_lead_auto_create) : integration.is_lead_auto_create,
    },
  };
}

/** The service's SIP user is `sip_<project>_<script>`; the postfix is the part after the last underscore. */
function sipPostfix(project: number, scriptId: string): string {
  const user = `sip_${project}_${scriptId}`;
  return user.slice(user.lastIndexOf('_') + 1);
}
