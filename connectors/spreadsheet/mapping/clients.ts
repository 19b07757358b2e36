import type { Client } from '../../../src/connectors/canonical';
import type { CellReader } from './cell-reader';
import { readCustomFields } from './deal-parts';
import { RowMapper, splitList } from './row-mapper';

/** clients: id, name, phone, email (several separated by , or ;), company, birth_date, updated_at */
export function clientMapper(r: CellReader): RowMapper<Client> {
  const c = {
    id: r.col('id'), name: r.col('name'), phone: r.col('phone'), email: r.col('email'),
    company: r.col('company'), birth: r.col('birth_date'), updated: r.col('updated_at'),
  };
  const { extraColumns, extraNames } = r.layout;
  return () => {
    const client: Client = {
      id: r.required(c.id, 'id') ?? '',
      name: r.required(c.name, 'name') ?? '',
      phones: splitList(r.text(c.phone)),
      emails: splitList(r.text(c.email)),
      company: r.text(c.company),
      birth_date: r.day(c.birth, 'birth_date'),
    };
    if (c.updated >= 0) client.updated_at = r.instant(c.updated, 'updated_at');
    if (extraColumns.length > 0) client.custom_fields = readCustomFields(r, extraColumns, extraNames);
    return r.failed ? null : client;
  };
}
