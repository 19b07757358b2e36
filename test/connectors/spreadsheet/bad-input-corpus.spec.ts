import { join } from 'path';
import type { SheetSource } from '../../../connectors/spreadsheet/settings';
import { FIXTURES, readStream } from './read-helper';

/**
 * The spreadsheet part of the bad-input corpus (test/fixtures/sheets/bad/): each file yields rejected records
 * naming file, row, id and field while its valid rows still come through, or one clear error naming the file.
 */
const BAD = join(FIXTURES, 'bad');

interface Case {
  file: string;
  settings?: Partial<SheetSource>;
  ids?: string[];
  rejected?: Array<[ref: string, id: string, field: string, reason: RegExp]>;
  error?: RegExp;
}

const CASES: Case[] = [
  // a quote never closed leaves no row after it readable: the stream fails, naming the row where it opened
  { file: 'unbalanced-quotes.csv', error: /^unbalanced-quotes\.csv row 3: a quote opened in this row is never closed/ },
  {
    file: 'wrong-column-count.csv',
    ids: ['B1', 'B4'],
    rejected: [
      ['wrong-column-count.csv row 3', 'B2', '', /3 columns, the header has 4/],
      ['wrong-column-count.csv row 4', 'B3', '', /5 columns, the header has 4/],
    ],
  },
  { file: 'binary-garbage.csv', ids: ['B1', 'B3'], rejected: [['binary-garbage.csv row 3', 'B2', '', /binary data/]] },
  {
    file: 'mixed-encodings.csv',
    ids: ['B1', 'B2', 'B3', 'B5'],
    rejected: [['mixed-encodings.csv row 5', 'B4', '', /not valid in the detected encoding/]],
  },
  { file: 'bom-in-middle.csv', ids: ['B1', 'B2'], rejected: [] },
  {
    file: 'impossible-dates.csv',
    ids: ['B1'],
    rejected: [
      ['impossible-dates.csv row 3', 'B2', 'created_at', /^"31.02.2025" is not a valid date$/],
      ['impossible-dates.csv row 4', 'B3', 'created_at', /^"29.02.2025" is not a valid date$/],
      ['impossible-dates.csv row 5', 'B4', 'created_at', /"01.03.2025 24:00" is not a valid date/],
      ['impossible-dates.csv row 6', 'B5', 'created_at', /"yesterday" is not a valid date/],
    ],
  },
  {
    file: 'bad-prices.csv',
    ids: ['B1'],
    rejected: [
      ['bad-prices.csv row 3', 'B2', 'price', /"-5" is negative/],
      ['bad-prices.csv row 4', 'B3', 'price', /"NaN" is not a number/],
      ['bad-prices.csv row 5', 'B4', 'price', /"1e400" is not a finite number/],
      ['bad-prices.csv row 6', 'B5', 'price', /"ten" is not a number/],
    ],
  },
  { file: 'duplicate-ids.csv', ids: ['B1', 'B2'], rejected: [['duplicate-ids.csv row 4', 'B1', 'id', /duplicate id "B1" \(first at row 2\)/]] },
  {
    file: 'empty-ids.csv',
    ids: ['B1'],
    rejected: [
      ['empty-ids.csv row 3', '', 'id', /is empty/],
      ['empty-ids.csv row 4', '', 'id', /is empty/],
    ],
  },
  { file: 'html-instead-of-csv.csv', error: /^\S*html-instead-of-csv.csv is an HTML page, not CSV\/XLSX/ },
  { file: 'truncated.xlsx', error: /truncated.xlsx: cannot read the XLSX file: the XLSX file is truncated/ },
];

describe('spreadsheet connector: bad-input corpus', () => {
  it.each(CASES.map((c) => [c.file, c] as const))('%s', async (_name, c) => {
    const read = readStream({ deals: { path: join(BAD, c.file), ...c.settings } }, 'deals');
    if (c.error) {
      await expect(read).rejects.toThrow(c.error);
      return;
    }
    const { records, rejected } = await read;
    expect(records.map((r) => r.id)).toEqual(c.ids);
    expect(rejected).toHaveLength(c.rejected!.length);
    c.rejected!.forEach(([ref, id, field, reason], i) => {
      expect(rejected[i]).toMatchObject({ ref, id, field });
      expect(rejected[i].reason).toMatch(reason);
    });
  });
});
