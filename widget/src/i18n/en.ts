/**
 * Every text of the widget's own interface, in English (built in: the first paint never waits
 * for it). Other languages are separate files loaded on demand (locales/*.ts). `{name}`-style
 * placeholders are filled by `format`.
 */
export const en = {
  openChat: 'Open chat with {name}',
  closeChatWith: 'Close chat with {name}',
  unavailable: 'This chatbot is not available here.',
  loadFailed: 'The chat could not be loaded.',
  backToChat: 'Back to the chat',
  newConversation: 'New chat',
  newConversationLabel: 'Start a new conversation',
  contact: 'Contact',
  contactLabel: 'Leave your contact details',
  close: 'Close chat',
  poweredBy: 'Powered by',
  confirmNew: 'Start a new conversation? This one will be cleared.',
  confirmNewYes: 'Start over',
  cancel: 'Cancel',
  conversation: 'Conversation',
  youSaid: 'You said:',
  botSaid: 'Chatbot said:',
  typing: 'The chatbot is typing',
  errorTooMany: 'Too many messages. Please wait a moment and try again.',
  errorUnavailable: 'This chatbot cannot answer right now. Please try again later.',
  errorConnection: 'The connection was interrupted.',
  errorGeneric: 'Sorry, something went wrong while answering.',
  retry: 'Retry',
  interrupted: 'This answer was interrupted and may be incomplete.',
  jumpToLatest: 'Jump to the latest message',
  sources: 'Sources',
  page: 'p. {page}',
  showSnippet: 'Show the passage',
  helpful: 'Helpful',
  notHelpful: 'Not helpful',
  feedbackThanks: 'Thanks for your feedback!',
  feedbackComment: 'What was missing or wrong? (optional)',
  feedbackSend: 'Send feedback',
  feedbackSkip: 'Skip',
  suggestedQuestions: 'Suggested questions',
  leadOffer: 'Would you like someone from our team to get back to you?',
  leadOfferAction: 'Leave your contact details',
  message: 'Message',
  placeholder: 'Type your message…',
  insertEmoji: 'Insert emoji',
  emoji: 'Emoji',
  send: 'Send message',
  stop: 'Stop answering',
  leadTitle: 'Leave your contact details',
  leadHint: 'We will get back to you. An email or a phone number is enough.',
  name: 'Name',
  email: 'Email',
  phone: 'Phone',
  leadNeedsContact: 'Please enter an email address or a phone number.',
  leadCheck: 'Please check your details: {details}.',
  leadFailed: 'Your details could not be sent. Please try again.',
  sending: 'Sending…',
  submit: 'Send',
  leadThanks: 'Thank you! We will get back to you soon.',
  continueChatting: 'Continue chatting',
  privateTitle: 'This chat is private',
  privateHint: 'Enter the password you were given to start chatting.',
  password: 'Password',
  passwordMissing: 'Please enter the password.',
  passwordWrong: 'That password is not right.',
  passwordTooMany: 'Too many attempts. Please wait a few minutes.',
  passwordFailed: 'Could not check the password. Please try again.',
  checking: 'Checking…',
  unlock: 'Unlock',
  dismissPopups: 'Dismiss messages',
  talkToPerson: 'Talk to a person',
};

/**
 * Live handoff's texts (issue 35). Their English is in the lazily loaded live module
 * (lazy/live-handoff.ts), so widget.js stays within its budget; every language file has them.
 */
export interface LiveStrings {
  handoffWaiting: string;
  handoffClosed: string;
  team: string;
}

/** The widget's texts; every language file provides all of them. */
export type Strings = typeof en & LiveStrings;
