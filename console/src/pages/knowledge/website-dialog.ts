import { html, nothing } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import {
  SyncFrequencySchema, VideoHostResourceCreateSchema, WEBSITE_DISCOVERY_DEFAULTS, WebsiteDiscoverySchema, WebsiteResourceCreateSchema,
  WebsiteResourceUpdateSchema, resourceContract, type Resource, type SyncFrequency, type WebsiteDiscovery, type WebsiteResourceContent,
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
  NONE: 'No: only the page URL and sub-links', SITEMAP: 'From the sitemap', LINKS: 'By following links', SITEMAP_AND_LINKS: 'The whole site: sitemap and links',
};

/** The sync schedule in an owner's words (the API value is shown beside it). */
export const SYNC_LABELS: Record<SyncFrequency, string> = {
  NEVER: 'Never (only when you press Sync now)', ONE_DAY: 'Every day', THREE_DAYS: 'Every 3 days', SEVEN_DAYS: 'Every week', ONE_MONTH: 'Every month (30 days)',
};

/** A new website crawls the whole site (its sitemap and links, within the most pages). */
const NEW_WEBSITE_DISCOVERY: WebsiteDiscovery = 'SITEMAP_AND_LINKS';

/**
 * @summary Add or edit a website (URL, sub-links, page discovery, selectors, user agent, delay, sync schedule), or add a hosted video.
 * @event resource-saved - Saved (`detail` is `{ resource, created }`).
 */
@customElement('website-dialog')
export class WebsiteDialog extends PageElement {
  @state() private kind: Kind = 'website';
  @state() private values: Record<Field, string> = this.empty();
  @state() private syncFrequency = 'NEVER';
  @state() private discovery: WebsiteDiscovery = NEW_WEBSITE_DISCOVERY;
  /** The website being edited (absent: adding). */
  @state() private editing: Resource | undefined;
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
    Object.assign(this, { kind, values: this.empty(), syncFrequency: 'NEVER', discovery: NEW_WEBSITE_DISCOVERY, error: '', submitted: false, editing: undefined });
    await this.updateComplete;
    this.dialog.showModal();
  }

  /** Opens a website's settings to change them (saving re-crawls it when what is crawled changed). */
  async edit(resource: Resource): Promise<void> {
    await this.open('website');
    this.editing = resource;
    try {
      this.fill(await call(resourceContract.getWebsite, { params: { id: resource.id } }));
    } catch (err) {
      this.error = err instanceof ApiError ? err.messages.join(' ') : 'The settings could not be loaded.';
    }
  }

  private fill(site: WebsiteResourceContent): void {
    const { settings } = site;
    this.discovery = settings.discovery ?? 'NONE';
    this.syncFrequency = site.syncFrequency;
    this.values = {
      ...this.empty(), url: site.url, subLinks: site.subLinks.join('\n'), tags: site.tags.join(', '),
      removeSelectors: (settings.removeSelectors ?? []).join('\n'), targetSelectors: (settings.targetSelectors ?? []).join('\n'),
      userAgent: settings.userAgent ?? '', delay: String(settings.delayBetweenExtractionMs ?? 0),
      maxPages: String(settings.maxPages ?? WEBSITE_DISCOVERY_DEFAULTS.maxPages), maxDepth: String(settings.maxDepth ?? WEBSITE_DISCOVERY_DEFAULTS.maxDepth),
      includePaths: (settings.includePaths ?? []).join('\n'), excludePaths: (settings.excludePaths ?? []).join('\n'),
    };
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
    if (this.kind === 'video') return issuesByField(VideoHostResourceCreateSchema, this.videoBody);
    return issuesByField(this.editing ? WebsiteResourceUpdateSchema : WebsiteResourceCreateSchema, this.websiteBody);
  }

  private async save(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    this.submitted = true;
    if (this.issues.size > 0) return;
    try {
      const editing = this.editing;
      const saved = this.kind === 'video'
        ? await call(resourceContract.createVideoHost, { body: this.videoBody })
        : editing
          ? await call(resourceContract.updateWebsite, { params: { id: editing.id }, body: this.websiteBody })
          : await call(resourceContract.createWebsite, { body: this.websiteBody });
      this.dialog.close();
      this.dispatchEvent(new CustomEvent('resource-saved', { detail: { resource: saved, created: !editing }, bubbles: true }));
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
      <div class="field"><label for="site-sync">Read it again</label>
        <select id="site-sync" aria-describedby="site-sync-hint" @change=${(e: Event) => { this.syncFrequency = (e.target as HTMLSelectElement).value; }}>
          ${SyncFrequencySchema.options.map((option) => html`<option value=${option} ?selected=${option === this.syncFrequency}>${SYNC_LABELS[option]}</option>`)}
        </select>
        <p class="hint" id="site-sync-hint">Changes on the site are picked up at each read. In the API: <code>syncFrequency</code> <code>${this.syncFrequency}</code>.</p></div>
      ${this.field('delay', { issueKey: 'delayBetweenExtractionMs' })}
      ${this.field('removeSelectors', { multiline: true, hint: 'CSS selectors of page parts to drop, one per line.' })}
      ${this.field('targetSelectors', { multiline: true, hint: 'CSS selectors of the only parts to keep, one per line.' })}
      ${this.field('userAgent', { hint: 'Empty: Parley\'s own.' })}`;
  }

  private renderDiscovery() {
    const discovering = this.discovery !== 'NONE';
    return html`<div class="field"><label for="site-discovery">Discover more pages</label>
        <select id="site-discovery" aria-describedby="site-discovery-hint" @change=${(e: Event) => { this.discovery = (e.target as HTMLSelectElement).value as WebsiteDiscovery; }}>
          ${WebsiteDiscoverySchema.options.map((option) => html`<option value=${option} ?selected=${option === this.discovery}>${DISCOVERY_LABELS[option]}</option>`)}
        </select>
        <p class="hint" id="site-discovery-hint">Pages of the page URL's site, within robots.txt and its Crawl-delay. In the API: <code>settings.discovery</code> <code>${this.discovery}</code>.</p></div>
      ${discovering ? html`${this.field('maxPages', { hint: 'Pages read per sync, 1–1000.' })}
        ${this.field('maxDepth', { hint: 'Links followed from the page URL, 1–10.' })}
        ${this.field('includePaths', { multiline: true, hint: 'Path patterns, one per line (/docs/**); empty: every path.' })}
        ${this.field('excludePaths', { multiline: true, hint: 'Path patterns never read, one per line (/blog/**, /*/print).' })}` : nothing}`;
  }

  override render() {
    return html`<dialog aria-labelledby="site-heading"><form novalidate @submit=${this.save}>
      <h2 id="site-heading">${this.kind === 'video' ? 'Add a hosted video' : this.editing ? 'Website settings' : 'Add website'}</h2>
      ${this.editing ? html`<p class="hint">Saving a change of what is read reads the site again; until then the chatbot answers from the pages read before.</p>` : nothing}
      ${this.kind === 'video' ? this.field('hostedVideoId', { hint: 'The video host\'s numeric id.' }) : this.renderWebsite()}
      ${this.field('tags', { hint: 'Separated by commas.' })}
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      <div class="row"><button type="submit">Save</button><button type="button" class="secondary" @click=${() => this.dialog.close()}>Cancel</button></div>
    </form></dialog>`;
  }
}
