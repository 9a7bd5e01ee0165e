/** Moments and days as every screen writes them: 15/03/2026 14:30 and 20/03/2026, in the viewer's time zone. */

const momentParts = new Intl.DateTimeFormat('pt-BR', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** A moment (an ISO instant or a Date) as dd/mm/aaaa hh:mm; what is not a moment stays as it is. */
export function momentText(value: unknown): string {
  const moment = value instanceof Date ? value : new Date(String(value));
  if (Number.isNaN(moment.getTime())) return String(value);
  const part = Object.fromEntries(momentParts.formatToParts(moment).map(({ type, value: text }) => [type, text]));
  return `${part.day}/${part.month}/${part.year} ${part.hour}:${part.minute}`;
}

/** A day (`2026-03-20`, the gateway's Date) as dd/mm/aaaa, with no time zone to move it; anything else as it is. */
export function dayText(value: unknown): string {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(value));
  return day ? `${day[3]}/${day[2]}/${day[1]}` : String(value);
}

/**
 * Whether a date box's value is a real day of a four-digit year: `2026-02-30` and `20261-03-20` are not (a browser's
 * date box lets up to six digits of year through). A date-and-time box's value may go on with its time.
 */
export function isRealDay(value: string): boolean {
  const day = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)?$/.exec(value);
  if (!day) return false;
  const [year, month, date] = [Number(day[1]), Number(day[2]), Number(day[3])];
  const moment = new Date(Date.UTC(year, month - 1, date));
  return moment.getUTCFullYear() === year && moment.getUTCMonth() === month - 1 && moment.getUTCDate() === date;
}
