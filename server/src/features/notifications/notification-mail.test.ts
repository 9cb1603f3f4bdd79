import { describe, expect, it } from 'vitest';
import { composeMail } from './notification-mail.js';

describe('composeMail', () => {
  it('escapes what visitors wrote in the HTML part and links into the console', () => {
    const mail = composeMail({
      type: 'conversation.handoff_requested', chatbotName: 'Shop',
      data: { chatbotId: 'c'.repeat(24), conversationId: 'd'.repeat(24), message: '<img src=x onerror=alert(1)> a person please' },
    }, 'https://parley.example');
    expect(mail.subject).toBe('[Parley] A visitor asks for a person (Shop)');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&#60;img src=x onerror=alert(1)&#62;');
    expect(mail.text).toContain('Message: <img src=x onerror=alert(1)> a person please');
    expect(mail.text).toContain(`https://parley.example/console/conversations?chatbot=${'c'.repeat(24)}&conversation=${'d'.repeat(24)}`);
  });

  it('says why a resource failed and where to see it', () => {
    const mail = composeMail({ type: 'resource.processed', data: { id: 'e'.repeat(24), fileName: 'Video 42', aiProcessingStatus: 'FAILED', failureReason: 'no video host' } }, 'http://localhost:3000');
    expect(mail.subject).toBe('[Parley] Knowledge could not be processed');
    expect(mail.text).toContain('Reason: no video host');
    expect(mail.text).toContain(`http://localhost:3000/console/knowledge/${'e'.repeat(24)}`);
  });
});
