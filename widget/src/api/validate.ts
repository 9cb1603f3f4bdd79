import type {
  EmbedConfig, EmbedConversation, EmbedSession, ErrorBody, Feedback, Lead, StreamingEvent,
} from '@parley/shared';
import { wireSchemas } from 'virtual:parley-wire-schemas';
import { matches, type JsonSchema } from './json-schema.js';

// The server's answers checked against the shared zod schemas themselves, as JSON Schema made at
// build time (scripts/wire-schemas.ts): the widget cannot drift from the contract, and zod stays
// out of widget.js. A mismatch is an error state, never a crash (house-style.md § Errors).

/** A check of one answer: the value, typed, or `undefined` when it breaks the schema. */
const parserOf = <T>(schema: JsonSchema) => (value: unknown): T | undefined => (matches(schema, value) ? (value as T) : undefined);

/** The embed config (`EmbedConfigSchema`). */
export const parseEmbedConfig = parserOf<EmbedConfig>(wireSchemas.EmbedConfigSchema);
/** A PRIVATE chatbot's session token (`EmbedSessionSchema`). */
export const parseEmbedSession = parserOf<EmbedSession>(wireSchemas.EmbedSessionSchema);
/** A saved visitor conversation with its visitorToken (`EmbedConversationSchema`). */
export const parseEmbedConversation = parserOf<EmbedConversation>(wireSchemas.EmbedConversationSchema);
/** A captured lead (`LeadSchema`). */
export const parseLead = parserOf<Lead>(wireSchemas.LeadSchema);
/** A stored 👍/👎 (`FeedbackSchema`, an extension). */
export const parseFeedback = parserOf<Feedback>(wireSchemas.FeedbackSchema);
/** One SSE `data:` payload of a chat stream (`StreamingEventSchema`). */
export const parseStreamingEvent = parserOf<StreamingEvent>(wireSchemas.StreamingEventSchema);
/** The API's error body, when an error answer has one (`ErrorBodySchema`). */
export const parseErrorBody = parserOf<ErrorBody>(wireSchemas.ErrorBodySchema);
