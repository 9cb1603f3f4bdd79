import { html, nothing } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import {
  SyncFrequencySchema, VideoHostResourceCreateSchema, WEBSITE_DISCOVERY_DEFAULTS, WebsiteDiscoverySchema, WebsiteResourceCreateSchema,
  resourceContract, type SyncFrequency, type WebsiteDiscovery,
} from '@parley/shared';
import { ApiError, call } from '../../api/api-client.js';
import { PageElement } from '../../app/page-element.js';
import { issuesByField, lines } from '../chatbots/form-issues.js';

type Kind = 'website' | 'video';
const FIELDS = {
  url: 'Page URL', subLinks: 'Sub-links', removeSelectors: 'Remove selectors', targetSelectors: 'Keep only selectors',
  userAgent: 'User agent', delay: 'Delay between pages (ms)', hostedVideoId: 'Hosted video id', tags: 'Tags',
  maxPages: 'Most pages', maxDepth: 'Most links deep', includePaths: 'Only paths', excludePaths: 'Never paths',
} as const;
type Field = keyof typeof FIELDS;

const DISCOVERY_LABELS: Record<WebsiteDiscovery, string> = {
  NONE: 'No: only the page URL and sub-links', SITEMAP: 'From the sitemap', LINKS: 'By following links', SITEMAP_AND_LINKS: 'Sitemap and links',
};

/**
 * @summary Add a website (URL, sub-links, page discovery, selectors, user agent, delay, sync schedule) or a hosted video.
 * @event resource-saved - Created (`detail.resource` is the resource).
 */
@customElement('website-dialog')
export class WebsiteDialog extends PageElement {
  @state() private kind: Kind = 'website';
  @state() private values: Record<Field, string> = this.empty();
  @state() private syncFrequency = 'NEVER';
  @state() private discovery: WebsiteDiscovery = 'NONE';
  @state() private error = '';
  @state() private submitted = false;
  @query('dialog') private dialog!: HTMLDialogElement;

  private empty(): Record<Field, string> {
    return {
      url: '', subLinks: '', removeSelectors: '', targetSelectors: '', userAgent: '', delay: '0', hostedVideoId: '', tags: '',
      maxPages: String(WEBSITE_DISCOVERY_DEFAULTS.maxPages), maxDepth: String(WEBSITE_DISCOVERY_DEFAULTS.maxDepth), includePaths: '', excludePaths: '',
    };
  }

  async open(kind: Kind): Promise<void> {
    Object.assign(this, { kind, values: this.empty(), syncFrequency: 'NEVER', discovery: 'NONE', error: '', submitted: false });
    await this.updateComplete;
    this.dialog.showModal();
  }

  private get videoBody() {
    return { hostedVideoId: this.values.hostedVideoId.trim(), tags: lines(this.values.tags) };
  }

  private get websiteBody() {
    const v = this.values;
    const settings = {
      ...(v.delay.trim() ? { delayBetweenExtractionMs: Number(v.delay) } : {}),
      ...(lines(v.removeSelectors).length ? { removeSelectors: lines(v.removeSelectors) } : {}),
      ...(lines(v.targetSelectors).length ? { targetSelectors: lines(v.targetSelectors) } : {}),
      ...(v.userAgent.trim() ? { userAgent: v.userAgent.trim() } : {}),
      ...(this.discovery === 'NONE' ? {} : {
        discovery: this.discovery, maxPages: Number(v.maxPages), maxDepth: Number(v.maxDepth),
        ...(lines(v.includePaths).length ? { includePaths: lines(v.includePaths) } : {}),
        ...(lines(v.excludePaths).length ? { excludePaths: lines(v.excludePaths) } : {}),
      }),
    };
    return {
      url: v.url.trim(), subLinks: v.subLinks.split('\n').map((s) => s.trim()).filter(Boolean),
      syncFrequency: this.syncFrequency as SyncFrequency, settings, tags: lines(v.tags),
    };
  }

  private get issues(): Map<string, string> {
    return this.kind === 'video' ? issuesByField(VideoHostResourceCreateSchema, this.videoBody) : issuesByField(WebsiteResourceCreateSchema, this.websiteBody);
  }

  private async save(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    this.submitted = true;
    if (this.issues.size > 0) return;
    try {
      const saved = this.kind === 'video'
        ? await call(resourceContract.createVideoHost, { body: this.videoBody })
        : await call(resourceContract.createWebsite, { body: this.websiteBody });
      this.dialog.close();
      this.dispatchEvent(new CustomEvent('resource-saved', { detail: { resource: saved }, bubbles: true }));
    } catch (err) {
      this.error = err instanceof ApiError ? err.messages.join(' ') : 'The resource could not be added.';
    }
  }

  private field(name: Field, options: { multiline?: boolean; hint?: string; issueKey?: string } = {}) {
    const issue = this.submitted ? this.issues.get(options.issueKey ?? name) : undefined;
    const onInput = (e: Event) => { this.values = { ...this.values, [name]: (e.target as HTMLInputElement).value }; };
    return html`<div class="field"><label for="site-${name}">${FIELDS[name]}</label>
      ${options.hint ? html`<p class="hint">${options.hint}</p>` : nothing}
      ${options.multiline
        ? html`<textarea id="site-${name}" .value=${this.values[name]} aria-invalid=${issue ? 'true' : 'false'} @input=${onInput}></textarea>`
        : html`<input id="site-${name}" .value=${this.values[name]} aria-invalid=${issue ? 'true' : 'false'} @input=${onInput}>`}
      ${issue ? html`<p class="error">${FIELDS[name]} ${issue}</p>` : nothing}</div>`;
  }

  private renderWebsite() {
    return html`${this.field('url')}
      ${this.field('subLinks', { multiline: true, hint: 'One URL per line: these pages are always read besides the page URL.' })}
      ${this.renderDiscovery()}
      <div class="field"><label for="site-sync">Sync</label>
        <select id="site-sync" @change=${(e: Event) => { this.syncFrequency = (e.target as HTMLSelectElement).value; }}>
          ${SyncFrequencySchema.options.map((option) => html`<option ?selected=${option === this.syncFrequency}>${option}</option>`)}
        </select></div>
      ${this.field('delay', { issueKey: 'delayBetweenExtractionMs' })}
      ${this.field('removeSelectors', { multiline: true, hint: 'CSS selectors of page parts to drop, one per line.' })}
      ${this.field('targetSelectors', { multiline: true, hint: 'CSS selectors of the only parts to keep, one per line.' })}
      ${this.field('userAgent', { hint: 'Empty: Parley\'s own.' })}`;
  }

  private renderDiscovery() {
    const discovering = this.discovery !== 'NONE';
    return html`<div class="field"><label for="site-discovery">Discover more pages</label>
        <select id="site-discovery" @change=${(e: Event) => { this.discovery = (e.target as HTMLSelectElement).value as WebsiteDiscovery; }}>
          ${WebsiteDiscoverySchema.options.map((option) => html`<option value=${option} ?selected=${option === this.discovery}>${DISCOVERY_LABELS[option]}</option>`)}
        </select>
        <p class="hint">Pages of the page URL's site, within robots.txt and its Crawl-delay.</p></div>
      ${discovering ? html`${this.field('maxPages', { hint: 'Pages read per sync, 1–1000.' })}
        ${this.field('maxDepth', { hint: 'Links followed from the page URL, 1–10.' })}
        ${this.field('includePaths', { multiline: true, hint: 'Path patterns, one per line (/docs/**); empty: every path.' })}
        ${this.field('excludePaths', { multiline: true, hint: 'Path patterns never read, one per line (/blog/**, /*/print).' })}` : nothing}`;
  }

  override render() {
    return html`<dialog aria-labelledby="site-heading"><form novalidate @submit=${this.save}>
      <h2 id="site-heading">${this.kind === 'video' ? 'Add a hosted video' : 'Add website'}</h2>
      ${this.kind === 'video' ? this.field('hostedVideoId', { hint: 'The video host\'s numeric id.' }) : this.renderWebsite()}
      ${this.field('tags', { hint: 'Separated by commas.' })}
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      <div class="row"><button type="submit">Save</button><button type="button" class="secondary" @click=${() => this.dialog.close()}>Cancel</button></div>
    </form></dialog>`;
  }
}
