import { html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { sessionContract, type Session } from '@parley/shared';
import { ApiError, call, setCsrfToken, whenUnauthorized } from '../api/api-client.js';
import '../pages/sign-in-page.js';
import { PageElement } from './page-element.js';
import { match, navigate } from './router.js';

const NAV = [
  ['Chatbots', '/console/chatbots'], ['Knowledge', '/console/knowledge'], ['Playground', '/console/playground'],
  ['Conversations', '/console/conversations'], ['Leads', '/console/leads'], ['Insights', '/console/insights'],
  ['Settings', '/console/settings/notifications'],
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
    whenUnauthorized(() => { this.session = undefined; setCsrfToken(undefined); });
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
    setCsrfToken(session.csrfToken);
    if (!location.pathname.startsWith('/console/') || location.pathname === '/console/sign-in') history.replaceState(null, '', '/console/chatbots');
    void this.route();
  }

  private readonly route = async (): Promise<void> => {
    if (!this.session) return;
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
      setCsrfToken(undefined);
      this.page = undefined;
      history.pushState(null, '', '/console/sign-in');
    }
  }

  override render() {
    if (this.checking) return html`<p class="loading" role="status">Loading…</p>`;
    if (!this.session) {
      return html`${this.failure ? html`<p class="error" role="alert">${this.failure}</p>` : nothing}
        <sign-in-page @signed-in=${(event: CustomEvent<Session>) => this.signedIn(event.detail)}></sign-in-page>`;
    }
    const current = location.pathname;
    return html`
      <a class="skip-link" href="#main">Skip to content</a>
      <header class="topbar">
        <span class="brand">Parley</span>
        <nav aria-label="Console">
          <ul>${NAV.map(([label, href]) => html`<li><a href=${href} aria-current=${current.startsWith(href) || (href.startsWith('/console/settings') && current.startsWith('/console/settings')) ? 'page' : nothing}>${label}</a></li>`)}</ul>
        </nav>
        <span class="organisation" title="Organisation">${this.session.organisationName}</span>
        <button type="button" class="secondary" @click=${() => this.signOut()}>Sign out</button>
      </header>
      <main id="main">${this.page ?? html`<p role="status">Loading…</p>`}</main>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap { 'parley-console': ParleyConsole }
}
