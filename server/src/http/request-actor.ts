import type { Request } from 'express';
import './request-context.js';

/** Who is acting: a team member, or (`memberId` null) a caller without one, such as a plain API key. */
export interface RequestActor {
  memberId: string | null;
  /** Shown to the visitor beside a reply; null shows a neutral label ("Team"). */
  name: string | null;
}

/**
 * The one place that says who the caller of an authenticated request is (issue 35). Today callers
 * are API keys or console sessions signed in with a key, so there is no member yet; team members
 * (issue 37) are wired in here.
 */
export function actorOf(_req: Request): RequestActor {
  return { memberId: null, name: null };
}
