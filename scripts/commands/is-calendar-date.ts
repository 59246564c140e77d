/** Whether a flag's value is a calendar date, YYYY-MM-DD, that exists (not 2026-02-30). */

/** True for a YYYY-MM-DD date that exists. */
export function isCalendarDate(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text);
}
