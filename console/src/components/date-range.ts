import { html } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { PageElement } from '../app/page-element.js';

/** Unix ms of a `YYYY-MM-DD` day's start (or end) in the owner's time zone. */
export function dayToMs(day: string, endOfDay = false): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const date = new Date(`${day}T00:00:00`);
  return endOfDay ? date.getTime() + 86_400_000 - 1 : date.getTime();
}

/** `YYYY-MM-DD` of a date in the owner's time zone. */
export function toDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * @summary "From" and "To" day inputs. `start` and `end` are `YYYY-MM-DD` (empty: open).
 * @event range-change - Either day changed (`detail` is `{ start, end }`).
 */
@customElement('date-range')
export class DateRange extends PageElement {
  @property() start = '';
  @property() end = '';

  private changed(which: 'start' | 'end', value: string): void {
    this[which] = value;
    this.dispatchEvent(new CustomEvent('range-change', { detail: { start: this.start, end: this.end }, bubbles: true }));
  }

  override render() {
    return html`
      <div class="field"><label for="range-start">From</label>
        <input id="range-start" type="date" .value=${this.start} @change=${(e: Event) => this.changed('start', (e.target as HTMLInputElement).value)}></div>
      <div class="field"><label for="range-end">To</label>
        <input id="range-end" type="date" .value=${this.end} @change=${(e: Event) => this.changed('end', (e.target as HTMLInputElement).value)}></div>
    `;
  }
}

/** The listing query of a day range (`end` omitted when open: the API then means "now"). */
export function rangeQuery(range: { start: string; end: string }): { start?: string; end?: string } {
  const start = dayToMs(range.start);
  const end = dayToMs(range.end, true);
  return {
    ...(start !== undefined ? { start: String(Math.max(0, start)) } : {}),
    ...(end !== undefined ? { end: String(Math.min(end, Date.now())) } : {}),
  };
}
