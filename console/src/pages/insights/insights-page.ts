import { html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { insightsContract, type ChatbotStats } from '@parley/shared';
import { ApiError, call } from '../../api/api-client.js';
import { PageElement } from '../../app/page-element.js';
import '../../components/chatbot-picker.js';
import '../../components/date-range.js';
import { rangeQuery, toDay } from '../../components/date-range.js';
import { barChart, horizontalBars, ratingsChart, shareBar } from './charts.js';

const DAY_MS = 86_400_000;
const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** Every UTC day of the range (up to 92, so bars stay readable), with zeros where nothing happened. */
function everyDay(stats: ChatbotStats): ChatbotStats['days'] {
  const first = Date.parse(`${stats.startInterval.slice(0, 10)}T00:00:00Z`);
  const last = Date.parse(`${stats.endInterval.slice(0, 10)}T00:00:00Z`);
  if (!Number.isFinite(first) || (last - first) / DAY_MS > 92) return stats.days;
  const known = new Map(stats.days.map((day) => [day.date, day]));
  const days: ChatbotStats['days'] = [];
  for (let time = first; time <= last; time += DAY_MS) {
    const date = new Date(time).toISOString().slice(0, 10);
    days.push(known.get(date) ?? { date, conversations: 0, messages: 0 });
  }
  return days;
}

/** @summary Per chatbot over a range: traffic per day, sentiment, intents, unanswered share, visitors' 👍 share and busiest hours. */
@customElement('insights-page')
export class InsightsPage extends PageElement {
  @state() private chatbotId = '';
  @state() private range = { start: toDay(new Date(Date.now() - 29 * 86_400_000)), end: '' };
  @state() private stats: ChatbotStats | undefined;
  @state() private error = '';

  private async load(): Promise<void> {
    if (!this.chatbotId) return;
    this.error = '';
    try {
      this.stats = await call(insightsContract.chatbotStats, { params: { id: this.chatbotId }, query: rangeQuery(this.range) });
    } catch (err) {
      this.error = err instanceof ApiError ? err.messages.join(' ') : 'The insights could not be loaded.';
    }
  }

  private renderStats(stats: ChatbotStats) {
    const all = everyDay(stats);
    const days = all.map((day) => ({ label: day.date.slice(5), value: day.conversations }));
    const messages = all.map((day) => ({ label: day.date.slice(5), value: day.messages }));
    const sentiment = Object.entries(stats.sentiment).map(([label, value]) => ({ label, value })).sort((a, b) => b.value - a.value);
    const hours = stats.busiestHours.map((value, hour) => ({ label: String(hour), value }));
    return html`
      <p>${plural(stats.conversations, 'conversation')}, ${plural(stats.messages, 'message')}; ${plural(stats.questions.asked, 'visitor message')}, of which
        ${stats.questions.unanswered} unanswered; from ${new Date(stats.startInterval).toLocaleDateString()} to ${new Date(stats.endInterval).toLocaleDateString()}.</p>
      <div class="grid-2">
        <section class="card"><h2>Conversations per day</h2>${barChart('Conversations per day', days)}</section>
        <section class="card"><h2>Messages per day</h2>${barChart('Messages per day', messages, { color: '#047857' })}</section>
        <section class="card"><h2>Sentiment</h2>${sentiment.length ? horizontalBars('Sentiment of analysed conversations', sentiment) : html`<p>No analysed conversations yet.</p>`}</section>
        <section class="card"><h2>Top intents</h2>${stats.topIntents.length
          ? horizontalBars('Top intents', stats.topIntents.map((item) => ({ label: item.intent, value: item.conversations }))) : html`<p>No analysed conversations yet.</p>`}</section>
        <section class="card"><h2>Unanswered questions</h2>${shareBar('Share of visitor messages left unanswered', stats.questions.unansweredShare)}
          <p><a href="/console/conversations?chatbot=${this.chatbotId}&view=gaps">See the unanswered questions</a></p></section>
        ${this.renderRatings(stats)}
        <section class="card"><h2>Busiest hours (UTC)</h2>${barChart('Conversations by hour of the day, UTC', hours, { labelEvery: 3, color: '#6d28d9' })}</section>
      </div>`;
  }

  /** Visitors' 👍/👎 on answers: the 👍 share of the range, and the ratings of every day of it. */
  private renderRatings(stats: ChatbotStats) {
    const { up, down, upShare } = stats.feedback;
    const known = new Map(stats.feedbackDays.map((day) => [day.date, day]));
    const filled = everyDay(stats);
    // Beyond 92 days `everyDay` answers the days with conversations; then only the rated days are drawn.
    const days = (filled === stats.days ? stats.feedbackDays : filled)
      .map((day) => ({ label: day.date.slice(5), up: known.get(day.date)?.up ?? 0, down: known.get(day.date)?.down ?? 0 }));
    return html`<section class="card" aria-labelledby="ratings-heading"><h2 id="ratings-heading">Visitor ratings</h2>${upShare === undefined
      ? html`<p>No answers rated in this range yet.</p>` : html`
      <p>${plural(up, 'answer')} rated helpful <span aria-hidden="true">👍</span>, ${down} not helpful <span aria-hidden="true">👎</span>:
        ${Math.round(upShare * 100)}% helpful.</p>
      ${shareBar('Share of rated answers rated helpful', upShare, '#047857')}
      <h3>Ratings per day</h3>${ratingsChart('Ratings per day', days)}
      <p class="hint"><span class="legend up"></span> helpful <span class="legend down"></span> not helpful</p>`}
      ${down > 0 ? html`<p><a href="/console/conversations?chatbot=${this.chatbotId}&rating=down">See the answers rated not helpful</a></p>` : nothing}</section>`;
  }

  override render() {
    return html`<h1 tabindex="-1">Insights</h1>
      <form class="toolbar" @submit=${(e: SubmitEvent) => { e.preventDefault(); void this.load(); }}>
        <chatbot-picker .value=${this.chatbotId} @chatbot-change=${(e: CustomEvent<string>) => { this.chatbotId = e.detail; void this.load(); }}></chatbot-picker>
        <date-range .start=${this.range.start} .end=${this.range.end} @range-change=${(e: CustomEvent<{ start: string; end: string }>) => { this.range = e.detail; }}></date-range>
        <button type="submit">Apply</button>
      </form>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${this.stats ? this.renderStats(this.stats) : nothing}`;
  }
}
