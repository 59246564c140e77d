/** Turns a YYYY-MM-DD date into a whole UTC day count, so date arithmetic never touches local time. */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MS_PER_DAY = 86_400_000;

/**
 * Returns the number of days since 1970-01-01 (UTC) for a calendar date; throws on anything that is not
 * a real YYYY-MM-DD date, naming `label` so the caller's field shows up in the message.
 */
export function utcDayNumber(date: string, label: string): number {
  const parts = ISO_DATE.exec(date);
  if (parts === null) throw new Error(`${label}: '${date}' is not a YYYY-MM-DD date`);
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const ms = Date.UTC(year, month - 1, day);
  // Date.UTC silently rolls 2026-02-30 over into March; a round trip catches impossible dates.
  const back = new Date(ms);
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) {
    throw new Error(`${label}: '${date}' is not a calendar date`);
  }
  return ms / MS_PER_DAY;
}
