import type { Client } from 'tracker-sync/connector';
import { normalizedList, normalizeEmail, normalizePhone } from 'tracker-sync/connector';
import type { CellReader } from './cell-reader';
import { readCustomFields } from './deal-parts';
import { RowMapper, splitList } from './row-mapper';

/**
 * clients: id, name, phone, email (several separated by , or ;), company, birth_date, updated_at.
 * Phones and e-mails are normalised as the CRM connector does ('+7 (900) 000-00-01' -> '+79000000001').
 */
export function clientMapper(r: CellReader): RowMapper<Client> {
  const c = {
    id: r.col('id'), name: r.col('name'), phone: r.col('phone'), email: r.col('email'),
    company: r.col('company'), birth: r.col('birth_date'), updated: r.col('updated_at'),
  };
  const { extraColumns, extraNames } = r.layout;
  return () => {
    const client: Client = {
      id: r.id(c.id, 'id', true) ?? '',
      name: r.required(c.name, 'name') ?? '',
      phones: normalizedList(splitList(r.contact(c.phone, 'phone')), normalizePhone),
      emails: normalizedList(splitList(r.text(c.email)), normalizeEmail),
      company: r.text(c.company),
      // optional: a birth date no reading makes a date is left out (r.leftOut), the client still sent
      birth_date: r.optionalDay(c.birth, 'birth_date'),
    };
    if (c.updated >= 0) client.updated_at = r.instant(c.updated, 'updated_at');
    if (extraColumns.length > 0) client.custom_fields = readCustomFields(r, extraColumns, extraNames);
    return r.failed ? null : client;
  };
}
