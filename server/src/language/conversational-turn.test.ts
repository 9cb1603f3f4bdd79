import { describe, expect, it } from 'vitest';
import { classifyTurn, conversationalFallback, conversationalReply } from './conversational-turn.js';

describe('classifyTurn', () => {
  it.each([
    ['Hello', 'greeting'], ['hiya', 'greeting'], ['good evening', 'greeting'], ['Hi there! How are you?', 'greeting'], ['Bonjour', 'greeting'],
    ['thank you', 'thanks'], ['cheers', 'thanks'], ['thanks!', 'thanks'], ['ok thanks 👍', 'thanks'], ['شكرا', 'thanks'],
    ['bye', 'goodbye'], ["that's all, thanks", 'goodbye'], ['see you', 'goodbye'], ['ok, see ya soon', 'goodbye'], ['Take care!', 'goodbye'],
    ['thanks, have a nice day', 'goodbye'], ['talk soon', 'goodbye'],
    ['no thanks', 'goodbye'], ["no, that's everything", 'goodbye'], ['goodnight', 'goodbye'], ['catch you later', 'goodbye'],
    ['how are you?', 'greeting'], ['is anyone there?', 'greeting'], ['hi, I have a question', 'greeting'], ['can you help me?', 'greeting'], ['help', 'greeting'],
    ['many thanks', 'thanks'], ["you've been very helpful", 'thanks'], ['that helps', 'thanks'],
    ['what can you do?', 'identity'], ['what can you help with?', 'identity'], ['who am I talking to?', 'identity'], ["you're a bot", 'identity'],
    ['speak to a manager', 'handoff'], ['not what I asked', 'complaint'], ["that's wrong", 'complaint'], ['lol', 'acknowledgement'],
    ['who are you?', 'identity'], ['Are you a bot?', 'identity'],
    ['ok', 'acknowledgement'], ['Got it.', 'acknowledgement'],
    ['connect me to a human please', 'handoff'], ['is there an actual person I could talk to', 'handoff'], ['I want to speak to someone real', 'handoff'], ['agent please', 'handoff'],
    ['This is useless', 'complaint'], ["you're not helpful", 'complaint'], ['this thing is completely pointless', 'complaint'],
    ['that was really useful, thank you', 'thanks'], ['ok great', 'acknowledgement'], ['put me through to a real person please', 'handoff'],
    // Closings that mix kinds are answered as the goodbye or the thanks they hold.
    ["ok thx, that's all for now", 'goodbye'], ['great, thanks! bye', 'goodbye'], ['thanks, good night', 'goodbye'], ['no thanks, that is all', 'goodbye'],
    ['lovely stuff, thanks so much', 'thanks'], ['perfect, cheers', 'thanks'],
    ['brill, thanks', 'thanks'], ['ta very much', 'thanks'], ['ugh this isn\'t helping at all', 'complaint'],
    ["you're not understanding my question at all", 'complaint'], ['what are you exactly?', 'identity'], ['am I talking to a bot?', 'identity'],
    ["you're a robot, aren't you?", 'identity'],
    ["Hello, hope you're well!", 'greeting'], ["Morning! Hope you're keeping well.", 'greeting'], ["you're not very helpful, are you", 'complaint'],
    ["I'd rather speak to a member of staff please", 'handoff'], ["I'd rather speak to a person", 'handoff'], ['lovely, thanks so much. see you in june!', 'goodbye'], ['ah perfect, thank u x', 'thanks'],
    ['are you a computer?', 'identity'], ['am I talking to a machine', 'identity'],
  ])('%s is %s', (message, kind) => {
    expect(classifyTurn(message)).toBe(kind);
  });

  it.each(['Hi, do you ship to Germany?', 'Thanks, and how much is delivery?', 'Who do I ring at night if a drain is blocked?', 'How are you open on Sundays?', 'ok so what time do you open', 'Are you open on Sundays?', 'Can I speak to someone about a wholesale account?', 'Do you have a good day rate?', 'Can I see your menu?', 'See you at 3pm, can we park there?', 'Do you take care of the luggage?',
    'What can you do about my missed bin?', 'Can you help me find the parking permit price?', 'Who is the manager?', 'Do you open at night?',
    'Is it helpful to book ahead for dinner?', 'What if I get the wrong size?', 'How are your candles made?', 'Is anyone there on Sundays to answer the phone?',
    'hi, how do I contact customer service?', 'hi thanks for the help with parking', 'ok so how much does it cost', 'thanks, is it open all day?'])(
    'leaves the question %s to the knowledge', (message) => {
      expect(classifyTurn(message)).toBeUndefined();
    });
});

describe('conversationalFallback', () => {
  it.each([
    ["I've rung three times today and nobody ever picks up. Absolutely useless.", 'complaint'],
    ['can I just speak to someone at reception instead?', 'handoff'],
    ['is this a chatbot or a real person typing?', 'identity'],
    ['is this automated or am I chatting to someone in the shop?', 'identity'],
    ["I've been going round in circles on this website for an hour, honestly.", 'complaint'],
    ['ugh, can you just put me through to someone on your team', 'handoff'], ['you keep giving me the wrong information!!', 'complaint'],
    // A remark on something that went badly, read by the words' valence.
    ['the waiter was quite rude to my mother on Friday', 'complaint'], ['delivery came three days late, not impressed', 'complaint'],
  ])('reads %s as %s', (message, kind) => {
    expect(classifyTurn(message)).toBeUndefined();
    expect(conversationalFallback(message)).toBe(kind);
  });

  it.each(['Which party won the last election in France?', 'Can someone tell me the weather in Dublin?', 'Why is my phone so useless?',
    'when is there actually someone on the live chat?',
    'What is the best AI for writing essays?', 'Is there a person who can fix my boiler?',
    'I got the wrong size, can I exchange it?', 'Is the booking system automated?', 'My program is too slow. How do I speed it up?',
    'How do I run a Python program under Windows?', 'Can I set up automated reports?',
    // Asking, though in words of a bad experience.
    'what happens if my parcel is lost', 'My parcel was lost in the post. What should I do?',
    'Write a short story about a happy dog.'])('leaves %s a question', (message) => {
    expect(conversationalFallback(message)).toBeUndefined();
  });
});

describe('conversationalReply', () => {
  it('replies in the visitor\'s language and the chatbot\'s tone', () => {
    expect(conversationalReply('greeting', 'Hello', 'FORMAL')).toBe('Good day. How may I help you?');
    expect(conversationalReply('thanks', 'merci', 'FRIENDLY')).toMatch(/^Avec plaisir/);
    expect(conversationalReply('handoff', 'אפשר לדבר עם נציג?', 'FRIENDLY')).toMatch(/נציג/);
  });
});
