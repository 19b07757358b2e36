import ExcelJS from 'exceljs';
import { writeFileSync } from 'fs';
import { encode } from 'iconv-lite';
import { join } from 'path';
import type { Client, Deal, Manager } from '../../src/connectors/canonical';

/**
 * A small export as real users hand it over: deals from 1C as a Windows-1251 ';' CSV with CRLF, a title
 * row above Russian headers, DD.MM.YYYY dates, '1 234,50' amounts (one with a non-breaking space), product
 * columns, a status history column and a trailing empty row; clients and managers as two sheets of one
 * XLSX workbook (a date cell, several phones in a cell). `expected` is what each row must become.
 */

const NBSP = '\u00a0';
const DEALS_HEADER = 'Номер;Название;Статус;Дата;Изменена;Сумма;Себестоимость;Визит;Клиент;Менеджер;'
  + 'product_1_id;product_1_name;product_1_price;product_1_quantity;product_1_category;status_history;Канал';

export const dealRows = {
  s1: 'S-1;Кухня «Модерн»;Оплачено;10.03.2025;12.03.2025 18:45;1 234,50;740,70;1000101;K-1;M1;SKU-1;Стол «Дуб»;1 234,50;1;Мебель > Столы > Дуб;"10.03.2025:Новая;12.03.2025 18:45:Оплачено";Яндекс',
  s2: `S-2;Шкаф-купе;Новая;11.03.2025 14:30;11.03.2025 14:30;12${NBSP}500,00;;;K-2;M2;;;;;;;`,
  s3: 'S-3;Прихожая;Отказ;31.02.2025;01.03.2025;900;;1000103;K-1;M1;;;;;;;Звонок',
  s4: 'S-4;Комод;Отказ;12.03.2025 09:00;13.03.2025 10:00;около 900;;;K-2;M2;;;;;;;',
  noId: ';Без номера;Новая;12.03.2025;12.03.2025;100;;;;;;;;;;;',
  duplicate: 'S-2;Дубль;Новая;12.03.2025;12.03.2025;100;;;;;;;;;;;',
  s7: 'S-7;Отмена;Отказ;14.03.2025 23:59;15.03.2025 00:30;0;0;1000107;K-3;M1;SKU-2;Доставка;1 500;2;Услуги;14.03.2025 23:59:Отказ;Сайт',
};

export function writeDealsCsv(dir: string, rows: string[] = Object.values(dealRows)): string {
  const file = join(dir, 'deals-1c.csv');
  const lines = ['Выгрузка сделок из 1С за март 2025;;;;;;;;;;;;;;;;', DEALS_HEADER, ...rows, ';;;;;;;;;;;;;;;;'];
  writeFileSync(file, encode(`${lines.join('\r\n')}\r\n`, 'win1251'));
  return file;
}

/** `managers`: the rows of the managers sheet (by default M1 and M2). */
export async function writeContactsXlsx(dir: string, managerIds: string[] = ['M1', 'M2']): Promise<string> {
  const file = join(dir, 'contacts.xlsx');
  const workbook = new ExcelJS.Workbook();
  const clients = workbook.addWorksheet('Клиенты');
  clients.addRow(['id', 'name', 'phone', 'email', 'company', 'birth_date', 'Сегмент']);
  clients.addRow(['K-1', 'Мария Иванова', '+7 916 123-45-67; 8 495 000-00-00', 'maria@example.ru', 'ООО «Ромашка»', new Date(Date.UTC(1985, 2, 15)), 'VIP']);
  clients.addRow(['K-2', 'Пётр Сидоров', '+79001234567', null, null, '31.12.1990', null]);
  clients.addRow(['K-3', 'John Smith', null, 'john@smith.com', 'Smith & Co', null, 'Опт']);
  clients.getCell('F2').numFmt = 'dd.mm.yyyy';
  const managers = workbook.addWorksheet('Менеджеры');
  managers.addRow(['id', 'name', 'phone', 'email']);
  const rows: Record<string, (string | null)[]> = {
    M1: ['M1', 'Ольга Смирнова', '+7 495 000-00-00', 'olga@example.com'],
    M2: ['M2', 'Иван', null, 'ivan@example.com'],
  };
  for (const id of managerIds) managers.addRow(rows[id]);
  await workbook.xlsx.writeFile(file);
  return file;
}

export function spreadsheetSettings(deals: string, contacts: string) {
  return {
    deals: {
      path: deals,
      header_row: 2,
      columns: {
        id: 'Номер', title: 'Название', status: 'Статус', created_at: 'Дата', updated_at: 'Изменена', price: 'Сумма',
        cost: 'Себестоимость', visit_id: 'Визит', client_id: 'Клиент', manager_id: 'Менеджер',
      },
      status_map: { 'Оплачено': '1', 'Отказ': '2', '*': '0' },
    },
    clients: { path: contacts, sheet: 'Клиенты' },
    managers: { path: contacts, sheet: 'Менеджеры' },
  };
}

const at = (iso: string) => new Date(iso);

/** Moscow wall-clock times of the file, in UTC. */
export const expected: { managers: Manager[]; clients: Client[]; deals: Deal[]; rejected: { id: string; field: string; row: number }[] } = {
  managers: [
    { id: 'M1', name: 'Ольга Смирнова', phone: '+7 495 000-00-00', email: 'olga@example.com' },
    { id: 'M2', name: 'Иван', phone: null, email: 'ivan@example.com' },
  ],
  clients: [
    {
      id: 'K-1', name: 'Мария Иванова', phones: ['+79161234567', '84950000000'], emails: ['maria@example.ru'],
      company: 'ООО «Ромашка»', birth_date: '1985-03-15', custom_fields: { 'Сегмент': 'VIP' },
    },
    { id: 'K-2', name: 'Пётр Сидоров', phones: ['+79001234567'], emails: [], company: null, birth_date: '1990-12-31', custom_fields: { 'Сегмент': null } },
    { id: 'K-3', name: 'John Smith', phones: [], emails: ['john@smith.com'], company: 'Smith & Co', birth_date: null, custom_fields: { 'Сегмент': 'Опт' } },
  ],
  deals: [
    {
      id: 'S-1', title: 'Кухня «Модерн»', created_at: at('2025-03-09T21:00:00Z'), updated_at: at('2025-03-12T15:45:00Z'), status: '1',
      visit_id: '1000101', price: 1234.5, cost: 740.7, client_id: 'K-1', manager_id: 'M1', custom_fields: { 'Канал': 'Яндекс' },
      products: [{ id: 'SKU-1', name: 'Стол «Дуб»', quantity: 1, price: 1234.5, categories: ['Мебель', 'Столы', 'Дуб'] }],
      history: [{ date: at('2025-03-09T21:00:00Z'), status: '0' }, { date: at('2025-03-12T15:45:00Z'), status: '1' }],
    },
    {
      id: 'S-2', title: 'Шкаф-купе', created_at: at('2025-03-11T11:30:00Z'), updated_at: at('2025-03-11T11:30:00Z'), status: '0',
      visit_id: null, price: 12500, cost: null, client_id: 'K-2', manager_id: 'M2', custom_fields: { 'Канал': null },
    },
    {
      id: 'S-7', title: 'Отмена', created_at: at('2025-03-14T20:59:00Z'), updated_at: at('2025-03-14T21:30:00Z'), status: '2',
      visit_id: '1000107', price: 0, cost: 0, client_id: 'K-3', manager_id: 'M1', custom_fields: { 'Канал': 'Сайт' },
      products: [{ id: 'SKU-2', name: 'Доставка', quantity: 2, price: 1500, categories: ['Услуги'] }],
      history: [{ date: at('2025-03-14T20:59:00Z'), status: '2' }],
    },
  ],
  rejected: [
    { id: 'S-3', field: 'created_at', row: 5 },
    { id: 'S-4', field: 'price', row: 6 },
    { id: '', field: 'id', row: 7 },
    { id: 'S-2', field: 'id', row: 8 },
  ],
};
