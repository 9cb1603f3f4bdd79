import type { Request } from 'express';
import './request-context.js';

/** Who is acting: a team member, or (`memberId` null) a caller without one, such as a plain API key. */
export interface RequestActor {
  memberId: string | null;
  /** Shown to the visitor beside a reply; null shows a neutral label ("Team"). */
  name: string | null;
}

/**
 * The one place that says who the caller of an authenticated request is: the member signed in to
 * the console, or nobody in particular for an API key and a console session made with one.
 */
export function actorOf(req: Request): RequestActor {
  const member = req.auth?.member;
  return member ? { memberId: member.id, name: member.name } : { memberId: null, name: null };
}
