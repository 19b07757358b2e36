import { badRequest } from '../errors/sandbox-error';
import { Json, optionalString, requireId, requireString } from '../validation/body-checks';

export interface ClientInput {
  externalId: string;
  name: string;
  phone: string | null;
  email: string | null;
  company: string | null;
  birthDate: string | null;
  fields: Record<string, unknown>;
}

/**
 * One item of clients/import: `id` and `name` required, `birth_date` as YYYY-MM-DD. The
 * specification says phone or e-mail "should" be given; the sandbox accepts a client without both.
 */
export function readClientInput(item: unknown, index: number): ClientInput {
  const path = `[${index}]`;
  if (!item || typeof item !== 'object' || Array.isArray(item)) throw badRequest(path, `${path}: each client must be an object`);
  const body = item as Json;
  const birthDate = optionalString(body, 'birth_date', `${path}.birth_date`) ?? null;
  if (birthDate !== null && birthDate !== '' && !/^\d{4}-\d{2}-\d{2}$/.test(birthDate)) {
    throw badRequest(`${path}.birth_date`, `${path}.birth_date: must be YYYY-MM-DD, got ${JSON.stringify(birthDate)}`);
  }
  const fields = body.fields ?? {};
  if (typeof fields !== 'object' || Array.isArray(fields) || fields === null) {
    throw badRequest(`${path}.fields`, `${path}.fields: must be an object of name to value`);
  }
  return {
    externalId: requireId(body, 'id', `${path}.id`),
    name: requireString(body, 'name', `${path}.name`),
    phone: optionalString(body, 'phone', `${path}.phone`) ?? null,
    email: optionalString(body, 'email', `${path}.email`) ?? null,
    company: optionalString(body, 'company', `${path}.company`) ?? null,
    birthDate: birthDate === '' ? null : birthDate,
    fields: fields as Record<string, unknown>,
  };
}
