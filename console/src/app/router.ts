/** A client route: a path pattern under /console and the page element that shows it, loaded on demand. */
export interface ConsoleRoute {
  pattern: RegExp;
  tag: string;
  /** Loads the page's chunk (which defines `tag`). */
  load: () => Promise<unknown>;
  /** Names of the pattern's groups, set on the page element as properties. */
  params?: string[];
  title: string;
}

/** The console's pages; each is its own chunk, loaded when first visited. */
export const ROUTES: ConsoleRoute[] = [
  { pattern: /^\/console\/chatbots\/?$/, tag: 'chatbots-page', title: 'Chatbots', load: () => import('../pages/chatbots/chatbots-page.js') },
  { pattern: /^\/console\/chatbots\/new$/, tag: 'chatbot-editor', title: 'New chatbot', load: () => import('../pages/chatbots/chatbot-editor.js') },
  { pattern: /^\/console\/chatbots\/([0-9a-f]{24})$/, params: ['chatbotId'], tag: 'chatbot-editor', title: 'Chatbot', load: () => import('../pages/chatbots/chatbot-editor.js') },
  { pattern: /^\/console\/chatbots\/([0-9a-f]{24})\/appearance$/, params: ['chatbotId'], tag: 'appearance-page', title: 'Appearance', load: () => import('../pages/chatbots/appearance-page.js') },
  { pattern: /^\/console\/knowledge\/?$/, tag: 'knowledge-page', title: 'Knowledge', load: () => import('../pages/knowledge/knowledge-page.js') },
  { pattern: /^\/console\/knowledge\/([0-9a-f]{24})$/, params: ['resourceId'], tag: 'resource-page', title: 'Resource', load: () => import('../pages/knowledge/resource-page.js') },
  { pattern: /^\/console\/playground\/?$/, tag: 'playground-page', title: 'Playground', load: () => import('../pages/playground/playground-page.js') },
  { pattern: /^\/console\/conversations\/?$/, tag: 'inbox-page', title: 'Conversations', load: () => import('../pages/inbox/inbox-page.js') },
  { pattern: /^\/console\/leads\/?$/, tag: 'leads-page', title: 'Leads', load: () => import('../pages/leads/leads-page.js') },
  { pattern: /^\/console\/insights\/?$/, tag: 'insights-page', title: 'Insights', load: () => import('../pages/insights/insights-page.js') },
  { pattern: /^\/console\/setup\/?$/, tag: 'owner-setup-page', title: 'Create the owner account', load: () => import('../pages/team/owner-setup-page.js') },
  { pattern: /^\/console\/settings\/members\/?$/, tag: 'members-page', title: 'Members', load: () => import('../pages/team/members-page.js') },
  { pattern: /^\/console\/settings\/activity\/?$/, tag: 'activity-page', title: 'Activity', load: () => import('../pages/team/activity-page.js') },
  { pattern: /^\/console\/settings\/api-keys\/?$/, tag: 'api-keys-page', title: 'API keys', load: () => import('../pages/team/api-keys-page.js') },
  { pattern: /^\/console\/settings(\/notifications)?\/?$/, tag: 'notifications-page', title: 'Notifications', load: () => import('../pages/settings/notifications-page.js') },
];

/** The route of a path, with its params; unknown paths go to the chatbot list. */
export function match(pathname: string): { route: ConsoleRoute; params: Record<string, string> } {
  for (const route of ROUTES) {
    const found = route.pattern.exec(pathname);
    if (!found) continue;
    const params = Object.fromEntries((route.params ?? []).map((name, index) => [name, found[index + 1] ?? '']));
    return { route, params };
  }
  return { route: ROUTES[0]!, params: {} };
}

/** Goes to a console path without reloading the page. */
export function navigate(path: string): void {
  if (`${location.pathname}${location.search}` !== path) history.pushState(null, '', path);
  window.dispatchEvent(new Event('console-navigate'));
}

/** The current query string as an object (filters live in the URL, so reloads and links keep them). */
export function queryParams(): URLSearchParams {
  return new URLSearchParams(location.search);
}
