import { readCalendarText } from '../../src/time/calendar-text';

/** src/time/calendar-text.ts: a calendar date as a person types it, read where a field's declared format fails. */
describe('readCalendarText', () => {
  it.each([
    ['8 февраля 1992', '1992-02-08'],
    ['8 февраля 1992 г.', '1992-02-08'],
    ['08 ФЕВРАЛЯ 1992 года', '1992-02-08'],
    ['8 февр. 1992', '1992-02-08'],
    ['1 мая 1985', '1985-05-01'],
    ['8-Feb-1992', '1992-02-08'],
    ['February 8th, 1992', '1992-02-08'],
    ['Feb 8, 1992', '1992-02-08'],
    ['08.02.1992', '1992-02-08'],
    ['08-02-1992', '1992-02-08'],
    ['1992-02-08', '1992-02-08'],
    ['1992-02-08T00:00:00Z', '1992-02-08'],
    ['13/02/1992', '1992-02-13'],
    ['02/13/1992', '1992-02-13'],
  ])('%j is %s', (text, day) => expect(readCalendarText(text)).toBe(day));

  it.each(['02/08/1992', '31.02.1992', '30 февраля 1992', 'весной 92-го', '8 фев 92', '1992', '710208000000', '', 'Feb 1992', '8 февраля 1992 9 марта'])(
    '%j is no date anyone can be sure of: null',
    (text) => expect(readCalendarText(text)).toBeNull(),
  );
});
