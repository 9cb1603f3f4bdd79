import { rolesOf, type RouteContract, type Session } from '@parley/shared';

let current: Session | undefined;

/** Keeps the signed-in session, so pages can show only the controls its role may use. */
export function setCurrentSession(session: Session | undefined): void {
  current = session;
}

export function currentSession(): Session | undefined {
  return current;
}

/**
 * Whether the signed-in caller may call a route: a member only when the route's contract lists its
 * role, a session made with an API key always (the server enforces the same rule).
 */
export function may(route: RouteContract): boolean {
  const role = current?.member?.role;
  return role === undefined || rolesOf(route).includes(role);
}
