import { z } from 'zod';

/** Office hours of a chatbot (extension of `websiteIntegration`): weekdays 1 (Monday) to 7, from–to in the time zone. */
export const OfficeHoursSchema = z.strictObject({
  timeZone: z.string().min(1).max(64).refine((zone) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, 'must be an IANA time zone such as Europe/Berlin'),
  weekdays: z.array(z.int().min(1).max(7)).min(1).max(7),
  from: z.string().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM'),
  to: z.string().regex(/^(?:[01]\d|2[0-4]):[0-5]\d$/, 'must be HH:MM'),
});
export type OfficeHours = z.infer<typeof OfficeHoursSchema>;
