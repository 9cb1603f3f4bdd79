import { html, nothing } from 'lit';
import { ApiError } from '../../api/api-client.js';
import { memberContract } from '@parley/shared';
import { may } from '../../app/session-state.js';

/** The message of a refused call, for a form's alert. */
export function messageOf(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.messages.length > 0 ? err.messages.join(' ') : fallback;
}

/** A labelled input of a member form. */
export function field(id: string, label: string, options: { type?: string; autocomplete?: string; hint?: string; value?: string } = {}) {
  const hintId = options.hint ? `${id}-hint` : undefined;
  return html`<div class="field"><label for=${id}>${label}</label>
    <input id=${id} name=${id} type=${options.type ?? 'text'} autocomplete=${options.autocomplete ?? 'off'} required spellcheck="false"
      .value=${options.value ?? ''} aria-describedby=${hintId ?? nothing}>
    ${options.hint ? html`<p id=${hintId} class="hint">${options.hint}</p>` : nothing}</div>`;
}

export const PASSWORD_HINT = 'At least 10 characters, and not a commonly used password. A few unrelated words make a good one.';

/** The value of a named input of a form. */
export function valueOf(form: HTMLFormElement, name: string): string {
  return (form.elements.namedItem(name) as HTMLInputElement).value;
}

/** The Notifications / Members / API keys / Activity tabs of Settings (all but Notifications for those who may manage members). */
export function settingsNav(current: 'notifications' | 'members' | 'api-keys' | 'activity') {
  if (!may(memberContract.list)) return nothing;
  return html`<nav aria-label="Settings" class="row">
    <a href="/console/settings/notifications" aria-current=${current === 'notifications' ? 'page' : nothing}>Notifications</a>
    <a href="/console/settings/members" aria-current=${current === 'members' ? 'page' : nothing}>Members</a>
    <a href="/console/settings/api-keys" aria-current=${current === 'api-keys' ? 'page' : nothing}>API keys</a>
    <a href="/console/settings/activity" aria-current=${current === 'activity' ? 'page' : nothing}>Activity</a>
  </nav>`;
}
