import type { Manager } from 'tracker-sync/connector';
import type { CellReader } from './cell-reader';
import type { RowMapper } from './row-mapper';

/** managers: id, name, phone, email */
export function managerMapper(r: CellReader): RowMapper<Manager> {
  const c = { id: r.col('id'), name: r.col('name'), phone: r.col('phone'), email: r.col('email') };
  return () => {
    const manager: Manager = {
      id: r.id(c.id, 'id', true) ?? '',
      name: r.required(c.name, 'name') ?? '',
      phone: r.contact(c.phone, 'phone'),
      email: r.text(c.email),
    };
    return r.failed ? null : manager;
  };
}
