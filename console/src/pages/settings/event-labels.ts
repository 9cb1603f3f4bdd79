import { NOTIFICATION_EVENT_TYPES, type NotificationEventType } from '@parley/shared';

/** How the console names each notification event. */
export const EVENT_LABELS: Record<NotificationEventType, string> = {
  'lead.created': 'A visitor leaves a lead',
  'conversation.handoff_requested': 'A visitor asks for a person',
  'conversation.waiting_message': 'A waiting visitor writes again',
  'feedback.created': 'A visitor rates an answer',
  'resource.processed': 'Knowledge is processed (or fails)',
};

export { NOTIFICATION_EVENT_TYPES };

/** The events a form's checkboxes name, in the API's order. */
export function toggled(events: readonly NotificationEventType[], event: NotificationEventType, on: boolean): NotificationEventType[] {
  const set = new Set(events);
  if (on) set.add(event); else set.delete(event);
  return NOTIFICATION_EVENT_TYPES.filter((type) => set.has(type));
}
