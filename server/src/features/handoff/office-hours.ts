import type { OfficeHours } from '@parley/shared';

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

/** Whether `now` falls within the office hours, in their time zone (`to` before `from` spans midnight). */
export function withinOfficeHours(hours: OfficeHours, now: number): boolean {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: hours.timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
  }).formatToParts(new Date(now));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const weekday = WEEKDAYS[part('weekday')];
  const minutes = Number(part('hour')) * 60 + Number(part('minute'));
  const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
  const from = toMinutes(hours.from);
  const to = toMinutes(hours.to);
  if (weekday === undefined) return false;
  if (from <= to) return hours.weekdays.includes(weekday) && minutes >= from && minutes < to;
  // Overnight: the evening belongs to the listed day, the early morning to the day before.
  const previous = weekday === 1 ? 7 : weekday - 1;
  return (hours.weekdays.includes(weekday) && minutes >= from) || (hours.weekdays.includes(previous) && minutes < to);
}
