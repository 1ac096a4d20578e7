// The interface's two date shapes, as pure validators. The JSON Schemas name them as custom formats
// ("svc-datetime", "svc-date"); index.ts registers these functions with ajv under those names.

/** Format name of the order record's `created_at` (interface: Order record; P-ORDER-3). */
export const SVC_DATETIME_FORMAT = 'svc-datetime';
/** Format name of the payout record's `created_at` (interface: Payout record; P-PAYOUT-2). */
export const SVC_DATE_FORMAT = 'svc-date';

const DATE_TIME_SHAPE = /^(\d{2}-\d{2}-\d{4}) (\d{2}):(\d{2}) (AM|PM)$/;
const DATE_SHAPE = /^(\d{2})-(\d{2})-(\d{4})$/;

/** True when day/month/year (already parsed as decimal numbers) name a real Gregorian calendar day. */
export function isCalendarDate(day: number, month: number, year: number): boolean {
  if (!Number.isInteger(day) || !Number.isInteger(month) || !Number.isInteger(year)) return false;
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  // A day past its month's end rolls over into the next month (setUTCFullYear, unlike Date.UTC, keeps years 1–99).
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCDate() === day;
}

/** `DD-MM-YYYY`, a real calendar date (e.g. `29-02-2024` yes, `31-02-2026` no). */
export function isSvcDate(text: string): boolean {
  // Without a match every part is undefined, and Number(undefined) is no calendar day.
  const [, day, month, year] = DATE_SHAPE.exec(text) ?? [];
  return isCalendarDate(Number(day), Number(month), Number(year));
}

/** `DD-MM-YYYY hh:mm AM|PM`: a real calendar date, an hour 01–12 and a minute 00–59 (`13:00 PM`, `00:15 AM` no). */
export function isSvcDateTime(text: string): boolean {
  const [, date = '', hour, minute] = DATE_TIME_SHAPE.exec(text) ?? [];
  const h = Number(hour);
  return h >= 1 && h <= 12 && Number(minute) <= 59 && isSvcDate(date);
}
