/** A well-formed id for examples (any real call answers 404 for it unless it exists). */
const EXAMPLE_ID = '65f1c0a2b3d4e5f6a7b8c9d0';
const question = [{ text: 'When do you open on Saturdays?', fromUser: true }];

/**
 * A request body per JSON operation, shown by the OpenAPI document (and pre-filled by `/docs`).
 * Each one passes its route's body schema (checked by the server's OpenAPI test), so "Try it out"
 * never starts from a body the API refuses.
 */
export const REQUEST_EXAMPLES: Readonly<Record<string, unknown>> = {
  createChatbot: {
    name: 'Help desk', welcomeMessage: 'Hi! How can I help you today?', model: 'alpha-4o-mini', accessLevel: 'PUBLIC',
    resourceIds: [], tags: ['support'], chatbotMessageColor: '#F6F7F8', userMessageColor: '#E0EEFA',
    gradientColors: ['#1E3A8A', '#2563EB', '#3B82F6', '#93C5FD'],
    restrictAnswersToResourcesContentResponse: 'Sorry, I can only answer questions about our shop.',
    websiteIntegration: { allowedDomains: ['example.com', '*.example.com'], bubbleAlignment: 'right', welcomeHeaderTitle: 'Help desk' },
  },
  updateChatbot: { name: 'Help desk', welcomeMessage: 'Welcome back!', gradientColors: '#1E3A8A,#2563EB,#3B82F6,#93C5FD', showBadge: true },
  chatWithChatbot: { chatbotId: EXAMPLE_ID, conversation: question },
  chatWithChatbotStream: { chatbotId: EXAMPLE_ID, conversation: question },
  saveConversation: { chatbotId: EXAMPLE_ID, messages: [...question, { text: 'We open at 9am on Saturdays.', fromUser: false }] },
  createTextResource: { name: 'Opening hours', content: 'Our shop opens at 9am and closes at 6pm, Monday to Saturday.', tags: ['hours'] },
  createHostedVideoResource: { hostedVideoId: '76979871', tags: [] },
  createWebsiteResource: {
    url: 'https://example.com/help', subLinks: ['https://example.com/help/returns'], syncFrequency: 'SEVEN_DAYS',
    settings: { delayBetweenExtractionMs: 500, removeSelectors: ['nav', 'footer'] }, tags: ['website'],
  },
  chatWithResource: { resourceId: EXAMPLE_ID, conversation: question },
  chatWithResourceStream: { resourceId: EXAMPLE_ID, conversation: question },
  createQaResource: {
    name: 'Visitor questions', tags: ['faq'],
    pairs: [{ questions: ['Where can I park?', 'Is there parking?'], answer: 'Park for free in the Mill Lane car park behind the shop.' }],
  },
  updateQaResource: { pairs: [{ id: EXAMPLE_ID, questions: ['Where can I park?'], answer: 'Park for free in the Mill Lane car park behind the shop.' }] },
  createSavedAnswer: { questions: ['Do you sell gift cards?', 'Can I buy a voucher?'], answer: 'Yes, from 10 to 200 pounds, in the shop or online.', gapId: EXAMPLE_ID },
  createChatbotText: { name: 'Do you sell gift cards?', content: 'Gift cards. We sell gift cards from 10 to 200 pounds, in the shop and online.', gapId: EXAMPLE_ID },
  addQaPair: { questions: ['Do you sell gift cards?'], answer: 'Yes, from 10 to 200 pounds, in the shop or online.' },
  updateTextResource: { content: 'Our shop opens at 10am and closes at 6pm, Monday to Saturday.' },
  updateWebsiteResource: { settings: { discovery: 'SITEMAP_AND_LINKS', maxPages: 200 }, syncFrequency: 'SEVEN_DAYS' },
  createEmbedSession: { password: 'Str0ng!pass' },
  embedChatStream: { conversation: question },
  saveEmbedConversation: { messages: question },
  captureEmbedLead: { name: 'Jane Doe', email: 'jane@example.com' },
  giveEmbedFeedback: { conversationId: EXAMPLE_ID, visitorToken: 'vt_token-from-the-conversation-save', messageIndex: 1, rating: 'down', comment: 'The opening hours were wrong.' },
  createSession: { apiKey: 'pk_your-api-key' },
  createOwner: { email: 'owner@example.com', name: 'Olu Adeyemi', password: 'a long passphrase of yours' },
  inviteMember: { email: 'sam@example.com', role: 'AGENT' },
  acceptInvitation: { name: 'Sam Lee', password: 'a long passphrase of yours' },
  requestPasswordReset: { email: 'sam@example.com' },
  resetPassword: { password: 'a new long passphrase' },
  createApiKey: { name: 'Zapier' },
  createWebhook: { url: 'https://hooks.example.com/parley', events: ['lead.created', 'conversation.handoff_requested'], description: 'CRM' },
  updateWebhook: { events: ['lead.created', 'feedback.created'], enabled: true },
  updateNotificationSettings: { recipients: [{ email: 'team@example.com', events: ['lead.created', 'conversation.handoff_requested'] }] },
  replyToConversation: { text: 'Hi, this is Ana from the team. Your order ships tomorrow.' },
  requestEmbedHandoff: { conversationId: EXAMPLE_ID, visitorToken: 'vt_token-from-the-conversation-save' },
  updateMyProfile: { name: 'Sam Lee', avatarUrl: 'https://example.com/sam.png' },
};

/** A further named request example of an operation, beside its default one. */
export interface RequestExample { summary: string; value: unknown }

/**
 * Further request examples per operation, for extensions the default example does not show. The
 * OpenAPI document lists them with the default one (as `default`); each passes its route's schema too.
 */
export const REQUEST_EXAMPLE_VARIANTS: Readonly<Record<string, Readonly<Record<string, RequestExample>>>> = {
  createSession: {
    member: { summary: 'Extension: a member signs in with e-mail and password', value: { email: 'sam@example.com', password: 'a long passphrase of yours' } },
  },
  createWebsiteResource: {
    sitemapDiscovery: {
      summary: 'Extension: the pages of the sitemaps robots.txt names (else /sitemap.xml), at most 300, without the blog',
      value: {
        url: 'https://example.com/', syncFrequency: 'SEVEN_DAYS', tags: ['website'],
        settings: { discovery: 'SITEMAP', maxPages: 300, excludePaths: ['/blog/**', '/*/print'] },
      },
    },
    linkDiscovery: {
      summary: 'Extension: same-origin links breadth-first from url, two links deep, only the help centre',
      value: {
        url: 'https://example.com/help', settings: { discovery: 'LINKS', maxDepth: 2, maxPages: 100, includePaths: ['/help/**'], removeSelectors: ['nav', 'footer'] },
      },
    },
  },
};
