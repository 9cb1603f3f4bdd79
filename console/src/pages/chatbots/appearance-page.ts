import { html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { styleMap } from 'lit/directives/style-map.js';
import { ChatbotUpdateSchema, LIGHT_TEXT, chatbotContract, type Chatbot } from '@parley/shared';
import { ApiError, call } from '../../api/api-client.js';
import { PageElement } from '../../app/page-element.js';
import {
  COLOR_FIELDS, WIDGET_LANGUAGES, appearanceBody, brandAsPainted, appearanceOf, contrastWarnings, hasSavedColors, previewConfigOf, textOn, type AppearanceDraft,
} from './appearance-draft.js';
import './avatar-upload.js';
import { issuesByField } from './form-issues.js';
import './widget-preview.js';

type TextField = 'popupMessages' | 'welcomeHeaderTitle' | 'welcomeHeaderSubtitle' | 'welcomeMessage' | 'allowedDomains'
  | 'suggestedQuestions' | 'leadOfferAfterTurns' | 'dailyVisitorMessages';
const API_FIELD: Record<TextField, string> = {
  popupMessages: 'bubblePopupMessages', welcomeHeaderTitle: 'welcomeHeaderTitle', welcomeHeaderSubtitle: 'welcomeHeaderSubtitle',
  welcomeMessage: 'welcomeMessage', allowedDomains: 'allowedDomains', suggestedQuestions: 'suggestedQuestions',
  leadOfferAfterTurns: 'leadOfferAfterTurns', dailyVisitorMessages: 'dailyVisitorMessages',
};

/** @summary A chatbot's look, with the real widget previewing the unsaved settings beside the form. */
@customElement('appearance-page')
export class AppearancePage extends PageElement {
  @property() chatbotId = '';
  @state() private chatbot: Chatbot | undefined;
  @state() private draft: AppearanceDraft | undefined;
  @state() private avatarUrl: string | undefined;
  @state() private status = '';
  @state() private error = '';

  override async connectedCallback(): Promise<void> {
    super.connectedCallback();
    this.chatbot = await call(chatbotContract.get, { params: { id: this.chatbotId } });
    this.draft = appearanceOf(this.chatbot);
    this.avatarUrl = this.chatbot.avatarUrl;
  }

  private set<K extends keyof AppearanceDraft>(field: K, value: AppearanceDraft[K]): void {
    this.draft = { ...this.draft!, [field]: value };
    this.status = '';
    this.error = '';
  }

  private async save(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    this.error = '';
    if (issuesByField(ChatbotUpdateSchema, appearanceBody(this.draft!)).size > 0) { this.error = 'Fix the fields marked below.'; return; }
    try {
      this.chatbot = await call(chatbotContract.update, { params: { id: this.chatbotId }, body: appearanceBody(this.draft!) });
      this.draft = appearanceOf(this.chatbot);
      this.status = 'Saved.';
    } catch (err) {
      this.error = err instanceof ApiError ? err.messages.join(' ') : 'The appearance could not be saved.';
    }
  }

  private renderColors(draft: AppearanceDraft) {
    return html`<fieldset class="card"><legend>Colours</legend>
      ${COLOR_FIELDS.map(([field, label]) => {
        const { text, ratio } = textOn(draft[field]);
        return html`<div class="field"><label for="color-${field}">${label}</label><div class="row">
          <input id="color-${field}" type="color" .value=${draft[field].length === 4 ? draft[field].replace(/^#(.)(.)(.)$/, '#$1$1$2$2$3$3') : draft[field]}
            @input=${(e: Event) => this.set(field, (e.target as HTMLInputElement).value.toUpperCase())}>
          <code>${draft[field]}</code><span class="muted">text ${text}, ${ratio.toFixed(1)}:1</span></div></div>`;
      })}
      ${this.renderBrandColor(draft)}
      <div class="row"><input id="use-gradient" type="checkbox" .checked=${draft.useGradient} @change=${(e: Event) => this.set('useGradient', (e.target as HTMLInputElement).checked)}>
        <label for="use-gradient">Header gradient</label></div>
      ${draft.useGradient ? html`<div class="row" role="group" aria-label="Gradient stops">${draft.gradient.map((stop, index) => html`
        <label for="stop-${index}" class="visually-hidden">Gradient stop ${index + 1}</label>
        <input id="stop-${index}" type="color" .value=${stop.length === 4 ? stop.replace(/^#(.)(.)(.)$/, '#$1$1$2$2$3$3') : stop} @input=${(e: Event) => {
          const gradient = [...draft.gradient] as AppearanceDraft['gradient'];
          gradient[index] = (e.target as HTMLInputElement).value.toUpperCase();
          this.set('gradient', gradient);
        }}>`)}</div>` : nothing}
      ${this.renderWarnings(draft)}
    </fieldset>`;
  }

  private renderBrandColor(draft: AppearanceDraft) {
    const painted = brandAsPainted(draft.brandColor);
    const textName = painted.text === LIGHT_TEXT ? 'white' : 'dark';
    return html`<div class="row"><input id="use-brand" type="checkbox" .checked=${draft.useBrandColor}
        @change=${(e: Event) => this.set('useBrandColor', (e.target as HTMLInputElement).checked)}>
        <label for="use-brand">Brand colour (header, launcher and send button)</label></div>
      ${draft.useBrandColor ? html`<div class="field"><label for="brand-color" class="visually-hidden">Brand colour</label><div class="row">
        <input id="brand-color" type="color" .value=${draft.brandColor.length === 4 ? draft.brandColor.replace(/^#(.)(.)(.)$/, '#$1$1$2$2$3$3') : draft.brandColor}
          @input=${(e: Event) => this.set('brandColor', (e.target as HTMLInputElement).value.toUpperCase())}>
        <code>${draft.brandColor}</code>
        <span class="swatch" style=${styleMap({ background: painted.color, color: painted.text })} aria-hidden="true">Aa</span>
        <span class="muted" data-testid="brand-contrast">text ${painted.text}, ${painted.ratio.toFixed(1)}:1</span></div>
        <p data-testid="brand-painted">${painted.darkened
          ? html`The widget will use <code>${painted.color.toUpperCase()}</code>, a darker shade, so the buttons stand out and
            ${textName} text on it stays readable (${painted.ratio.toFixed(1)}:1).`
          : html`The widget uses <code>${draft.brandColor}</code> as it is, with ${textName} text (${painted.ratio.toFixed(1)}:1).`}</p>
        <p class="hint">A pale colour is darkened for the buttons, and text on it is always dark or light enough to read (4.5:1).
          A header gradient, when set, still paints the header. In the API: websiteIntegration.brandColor.</p></div>` : nothing}`;
  }

  /**
   * The colours the widget paints differently for contrast: for the saved colours, the API's own
   * `warnings`; for unsaved edits, the same shared rule run here, before anything is saved.
   */
  private renderWarnings(draft: AppearanceDraft) {
    const saved = hasSavedColors(this.chatbot!, draft);
    const warnings = saved ? this.chatbot!.warnings ?? [] : contrastWarnings(draft);
    return html`<div role="status">${warnings.map((warning) => html`<div class="warning">
      <p><strong>${saved ? 'Saved' : 'Unsaved'} gradient: contrast below WCAG AA.</strong>
        ${warning.message.charAt(0).toUpperCase()}${warning.message.slice(1)}.</p>
      <ul class="swatches" aria-label="Gradient stops as the widget paints them">${warning.colors.map((color, index) => {
        const painted = warning.adjustedTo[index] ?? color;
        return html`<li><span class="swatch" style=${styleMap({ background: painted, color: warning.textColor })}>Aa</span>
          <code>${painted.toUpperCase() === color.toUpperCase() ? color : html`${color} → ${painted.toUpperCase()}`}</code></li>`;
      })}</ul></div>`)}</div>`;
  }

  private text(field: TextField, label: string, issues: Map<string, string>, options: { multiline?: boolean; hint?: string } = {}) {
    const error = issues.get(API_FIELD[field]);
    const onInput = (e: Event) => this.set(field, (e.target as HTMLInputElement).value);
    const describedBy = [options.hint ? `${field}-hint` : '', error ? `${field}-error` : ''].filter(Boolean).join(' ') || nothing;
    return html`<div class="field"><label for=${field}>${label}</label>
      ${options.hint ? html`<p class="hint" id="${field}-hint">${options.hint}</p>` : nothing}
      ${options.multiline
        ? html`<textarea id=${field} .value=${this.draft![field]} aria-invalid=${error ? 'true' : 'false'} aria-describedby=${describedBy} @input=${onInput}></textarea>`
        : html`<input id=${field} .value=${this.draft![field]} aria-invalid=${error ? 'true' : 'false'} aria-describedby=${describedBy} @input=${onInput}>`}
      ${error ? html`<p class="error" id="${field}-error">${label}: ${error}</p>` : nothing}</div>`;
  }

  private renderBehaviour(draft: AppearanceDraft, issues: Map<string, string>) {
    return html`<fieldset class="card"><legend>Conversation</legend>
      <div class="field"><label for="locale">Language of the widget</label>
        <select id="locale" aria-describedby="locale-hint" @change=${(e: Event) => this.set('locale', (e.target as HTMLSelectElement).value)}>
          <option value="" ?selected=${draft.locale === ''}>The visitor's browser language</option>
          ${WIDGET_LANGUAGES.map(([tag, name]) => html`<option value=${tag} ?selected=${draft.locale === tag}>${name}</option>`)}
        </select>
        <p class="hint" id="locale-hint">Its buttons and messages; answers follow the visitor's language. In the API:
          <code>websiteIntegration.locale</code> ${draft.locale ? html`<code>${draft.locale}</code>` : 'absent'}.</p></div>
      ${this.text('suggestedQuestions', 'Starter questions', issues, { multiline: true, hint: 'One per line, at most 5; offered on an empty conversation, a click asks one.' })}
      ${this.text('leadOfferAfterTurns', 'Offer the contact form after this many answers', issues, {
        hint: 'Empty: only when the chatbot cannot answer or the visitor asks for a person. In the API: websiteIntegration.leadOfferAfterTurns.' })}
      ${this.text('dailyVisitorMessages', 'Visitor messages per day', issues, {
        hint: 'All visitors together, per 24 hours; beyond it they are asked to come back later. Empty: the service\'s default. In the API: websiteIntegration.dailyVisitorMessages.' })}
    </fieldset>`;
  }

  private renderForm(draft: AppearanceDraft) {
    const issues = issuesByField(ChatbotUpdateSchema, appearanceBody(draft));
    const check = (field: 'enabledEmoji' | 'showBadge', label: string) => html`<div class="row">
      <input id=${field} type="checkbox" .checked=${draft[field]} @change=${(e: Event) => this.set(field, (e.target as HTMLInputElement).checked)}>
      <label for=${field}>${label}</label></div>`;
    return html`<form novalidate @submit=${this.save}>
      ${this.renderColors(draft)}
      <fieldset class="card"><legend>Texts and behaviour</legend>
        ${this.text('welcomeHeaderTitle', 'Header title', issues)}
        ${this.text('welcomeHeaderSubtitle', 'Header subtitle', issues)}
        ${this.text('welcomeMessage', 'Welcome message', issues, { multiline: true })}
        ${this.text('popupMessages', 'Popup messages', issues, { multiline: true, hint: 'One per line, at most 5; shown beside the closed bubble.' })}
        <div class="field"><label for="alignment">Bubble alignment</label>
          <select id="alignment" @change=${(e: Event) => this.set('bubbleAlignment', (e.target as HTMLSelectElement).value as 'left' | 'right')}>
            <option value="right" ?selected=${draft.bubbleAlignment === 'right'}>Right</option>
            <option value="left" ?selected=${draft.bubbleAlignment === 'left'}>Left</option></select></div>
        ${check('enabledEmoji', 'Emoji picker')}${check('showBadge', 'Show the Parley badge')}
        ${this.text('allowedDomains', 'Allowed domains', issues, { multiline: true, hint: 'One host per line (example.com, *.example.com). Empty: any site may embed it.' })}
      </fieldset>
      ${this.renderBehaviour(draft, issues)}
      <avatar-upload .chatbotId=${this.chatbotId} @avatar-change=${(e: CustomEvent<string>) => { this.avatarUrl = e.detail; }}></avatar-upload>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      <div class="row"><button type="submit">Save</button><span role="status">${this.status}</span></div>
    </form>`;
  }

  override render() {
    if (!this.chatbot || !this.draft) return html`<h1 tabindex="-1">Appearance</h1><p role="status">Loading…</p>`;
    return html`<h1 tabindex="-1">Appearance: ${this.chatbot.name}</h1>
      <p><a href="/console/chatbots/${this.chatbot.id}">Back to the chatbot's settings</a></p>
      <div class="grid-2">${this.renderForm(this.draft)}
        <widget-preview .config=${previewConfigOf(this.chatbot, this.draft, this.avatarUrl)}></widget-preview></div>`;
  }
}
