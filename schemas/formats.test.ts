import { describe, expect, it } from 'vitest';
import { isCalendarDate, isSvcDate, isSvcDateTime } from './formats.js';

describe('isCalendarDate', () => {
  it.each([
    [1, 1, 2026, true],
    [31, 12, 2026, true],
    [29, 2, 2024, true], // divisible by 4
    [29, 2, 2000, true], // divisible by 400
    [29, 2, 1900, false], // divisible by 100, not 400
    [29, 2, 2026, false],
    [31, 4, 2026, false],
    [30, 4, 2026, true],
    [0, 1, 2026, false],
    [1, 0, 2026, false],
    [1, 13, 2026, false],
    [1, 1, 0, false],
  ])('%i-%i-%i → %s', (day, month, year, expected) => {
    expect(isCalendarDate(day, month, year)).toBe(expected);
  });
});

describe('isSvcDate (DD-MM-YYYY, interface: Payout record)', () => {
  it.each(['05-03-2026', '29-02-2024', '31-12-1999', '01-01-2026'])('accepts %j', (text) => {
    expect(isSvcDate(text)).toBe(true);
  });

  it.each([
    '31-02-2026', // no such day
    '29-02-2026', // not a leap year
    '00-01-2026',
    '01-13-2026',
    '5-3-2026', // digits not padded
    '2026-03-05', // ISO order
    '05/03/2026',
    '05-03-2026 09:41 PM', // a date-time is not a date
    ' 05-03-2026',
    '05-03-2026\n',
    '',
    '٠٥-٠٣-٢٠٢٦', // non-ASCII digits
  ])('rejects %j', (text) => {
    expect(isSvcDate(text)).toBe(false);
  });
});

describe('isSvcDateTime (DD-MM-YYYY hh:mm AM/PM, P-ORDER-3)', () => {
  it.each(['05-03-2026 09:41 PM', '29-02-2024 12:00 AM', '31-12-2026 01:59 PM', '01-01-2026 12:30 PM'])('accepts %j', (text) => {
    expect(isSvcDateTime(text)).toBe(true);
  });

  it.each([
    '05-03-2026 13:00 PM', // hour beyond the 12-hour clock
    '05-03-2026 00:15 AM', // hour 00 does not exist on a 12-hour clock
    '05-03-2026 09:60 AM',
    '31-02-2026 09:41 AM', // no such day
    '05-03-2026 9:41 AM', // hour not padded
    '05-03-2026 09:41 pm', // lowercase marker
    '05-03-2026 09:41PM', // missing space
    '05-03-2026 21:41', // 24-hour clock
    '05-03-2026 09:41:07 AM', // seconds
    '05-03-2026',
    '',
  ])('rejects %j', (text) => {
    expect(isSvcDateTime(text)).toBe(false);
  });
});
