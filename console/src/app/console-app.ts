import { html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { memberContract, sessionContract, webhookContract, type Session } from '@parley/shared';
import { ApiError, call, setCsrfToken, whenUnauthorized } from '../api/api-client.js';
import '../pages/sign-in-page.js';
import { PageElement } from './page-element.js';
import { match, navigate } from './router.js';
import { may, setCurrentSession } from './session-state.js';

/** Where an invitation link opens: shown with or without a session. */
const INVITATION_PATH = '/console/invitation';
/** Where an e-mailed password reset link opens: shown with or without a session. */
const PASSWORD_RESET_PATH = '/console/password-reset';

/** The section a console path belongs to (`/console/settings/members` → `/console/settings`): its nav link is current on every page of it. */
const sectionOf = (path: string) => path.split('/').slice(0, 3).join('/');

const NAV = [
  ['Chatbots', '/console/chatbots'], ['Knowledge', '/console/knowledge'], ['Playground', '/console/playground'],
  ['Conversations', '/console/conversations'], ['Leads', '/console/leads'], ['Insights', '/console/insights'],
] as const;

/**
 * @summary The console's shell: restores or starts the cookie session, then shows the navigation
 * and the page of the current /console/… path, loading each page's chunk when first visited.
 */
@customElement('parley-console')
export class ParleyConsole extends PageElement {
  @state() private session: Session | undefined;
  @state() private checking = true;
  @state() private page: HTMLElement | undefined;
  @state() private failure = '';

  override connectedCallback(): void {
    super.connectedCallback();
    whenUnauthorized(() => { this.session = undefined; setCurrentSession(undefined); setCsrfToken(undefined); });
    this.addEventListener('session-changed', (event) => this.signedIn((event as CustomEvent<Session>).detail));
    // The same session with new details (a renamed member): the page stays as it is.
    this.addEventListener('session-refreshed', (event) => { this.session = (event as CustomEvent<Session>).detail; setCurrentSession(this.session); });
    if (location.pathname === INVITATION_PATH) void import('../pages/team/invitation-page.js');
    if (location.pathname === PASSWORD_RESET_PATH) void import('../pages/team/password-reset-page.js');
    window.addEventListener('popstate', this.route);
    window.addEventListener('console-navigate', this.route);
    document.addEventListener('click', this.onLinkClick);
    void this.restore();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('popstate', this.route);
    window.removeEventListener('console-navigate', this.route);
    document.removeEventListener('click', this.onLinkClick);
  }

  private async restore(): Promise<void> {
    try {
      this.signedIn(await call(sessionContract.get, {}));
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) this.failure = 'The service did not answer. Reload the page to try again.';
    } finally {
      this.checking = false;
    }
  }

  private signedIn(session: Session): void {
    this.session = session;
    setCurrentSession(session);
    setCsrfToken(session.csrfToken);
    const { pathname } = location;
    const done = pathname === '/console/sign-in' || pathname === INVITATION_PATH || (pathname.startsWith('/console/setup') && !session.needsOwner);
    if (!pathname.startsWith('/console/') || done) history.replaceState(null, '', '/console/chatbots');
    void this.route();
  }

  private readonly route = async (): Promise<void> => {
    if (!this.session || location.pathname === INVITATION_PATH || location.pathname === PASSWORD_RESET_PATH) {
      // The shell shows the sign-in, invitation or reset page by path: render it for the new path.
      this.requestUpdate();
      return;
    }
    const { route, params } = match(location.pathname);
    document.title = `${route.title} · Parley`;
    await route.load();
    const page = document.createElement(route.tag) as HTMLElement & Record<string, unknown>;
    Object.assign(page, params);
    this.page = page;
    await this.updateComplete;
    // Move focus to the new page's heading, so keyboard and screen reader users start there.
    requestAnimationFrame(() => this.querySelector<HTMLElement>('main h1')?.focus({ preventScroll: false }));
  };

  /** Same-origin /console links navigate inside the app. */
  private readonly onLinkClick = (event: MouseEvent): void => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.composedPath().find((node): node is HTMLAnchorElement => node instanceof HTMLAnchorElement);
    if (!link || link.target || link.hasAttribute('download') || link.origin !== location.origin || !link.pathname.startsWith('/console/')) return;
    event.preventDefault();
    navigate(`${link.pathname}${link.search}`);
  };

  private async signOut(): Promise<void> {
    try {
      await call(sessionContract.remove, {});
    } finally {
      this.session = undefined;
      setCurrentSession(undefined);
      setCsrfToken(undefined);
      this.page = undefined;
      history.pushState(null, '', '/console/sign-in');
    }
  }

  override render() {
    if (this.checking) return html`<p class="loading" role="status">Loading…</p>`;
    if (location.pathname === INVITATION_PATH) {
      return html`<invitation-page @signed-in=${(event: CustomEvent<Session>) => this.signedIn(event.detail)}></invitation-page>`;
    }
    if (location.pathname === PASSWORD_RESET_PATH) return html`<password-reset-page></password-reset-page>`;
    if (!this.session) {
      return html`${this.failure ? html`<p class="error" role="alert">${this.failure}</p>` : nothing}
        <sign-in-page @signed-in=${(event: CustomEvent<Session>) => this.signedIn(event.detail)}></sign-in-page>`;
    }
    const current = location.pathname;
    const { member, needsOwner } = this.session;
    // Settings opens on Members for those who manage the team, on Notifications for the others who may.
    const settings = may(memberContract.list) ? '/console/settings/members' : '/console/settings/notifications';
    const nav = may(webhookContract.list) ? [...NAV, ['Settings', settings] as const] : NAV;
    return html`
      <a class="skip-link" href="#main">Skip to content</a>
      <header class="topbar">
        <span class="brand">Parley</span>
        <nav aria-label="Console">
          <ul>${nav.map(([label, href]) => html`<li><a href=${href} aria-current=${current.startsWith(sectionOf(href)) ? 'page' : nothing}>${label}</a></li>`)}</ul>
        </nav>
        <span class="organisation" title="Organisation">${this.session.organisationName}</span>
        ${member ? html`<span class="organisation">${member.name} · ${member.role}</span>` : nothing}
        <button type="button" class="secondary" @click=${() => this.signOut()}>Sign out</button>
      </header>
      <main id="main">
        ${needsOwner && !current.startsWith('/console/setup') ? html`<p class="warning">Your organisation has no accounts yet.
          <a href="/console/setup">Create the owner account</a> so that people sign in with their own e-mail and password.</p>` : nothing}
        ${this.page ?? html`<p role="status">Loading…</p>`}</main>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap { 'parley-console': ParleyConsole }
}
