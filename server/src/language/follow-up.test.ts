import { describe, expect, it } from 'vitest';
import { isFollowUp } from './follow-up.js';

describe('isFollowUp', () => {
  it('takes continuations, short messages pointing back and subjectless questions for follow-ups', () => {
    for (const message of ['and over Easter?', 'And standard?', 'what about dogs?', 'what does that cost?', 'can children do it too?', 'does that include VAT?', 'when?', 'How much?',
      'can he come to dinner with us?', "great - we're on Growth, can we switch it on today?"]) {
      expect(isFollowUp(message), message).toBe(true);
    }
  });

  it('takes a message setting itself against the previous one for a follow-up', () => {
    for (const message of ["could I make it land in my mum's inbox on her birthday instead of right now?", "my mate and I don't really want to share a bed though - is there an option?"]) {
      expect(isFollowUp(message), message).toBe(true);
    }
  });

  it('lets a question that names its own subject stand alone, however short', () => {
    for (const message of ['What time is check-out?', 'Do you take American Express?', 'Is breakfast included?', 'Parking?', 'How long does the large reed diffuser keep its scent and does it need turning every week?', '']) {
      expect(isFollowUp(message), message).toBe(false);
    }
  });
});
