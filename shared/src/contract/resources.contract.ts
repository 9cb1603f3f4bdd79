import { IdParamsSchema } from '../common/id.schema.js';
import {
  QaPairInputSchema, QaPairParamsSchema, QaPairSchema, QaResourceContentSchema, QaResourceCreateSchema, QaResourceUpdateSchema,
} from '../resources/qa-resource.schema.js';
import { ChatResponseSchema, ResourceChatBodySchema } from '../chat/chat-body.schema.js';
import {
  FileResourceUploadSchema, TextResourceCreateSchema, VideoHostResourceCreateSchema, WebsiteResourceCreateSchema,
} from '../resources/resource-create.schema.js';
import { ResourceListSchema, ResourceSchema } from '../resources/resource.schema.js';
import {
  PassageListingSchema, PassagesQuerySchema, TextResourceContentSchema, TextResourceUpdateSchema,
} from '../resources/resource-upkeep.schema.js';
import { WebsiteResourceContentSchema, WebsiteResourceUpdateSchema } from '../resources/website-update.schema.js';
import { CHAT_RESPONSE_DESCRIPTION, STREAM_DESCRIPTION } from './chatbots.contract.js';
import { ANY_ROLE, MANAGERS, defineRoute, errorResponses } from './route-contract.js';

const tag = 'Resources';
const created = { 201: { description: 'The new resource, `NOT_STARTED`; processing runs in the background.', schema: ResourceSchema } };
const creationErrors = errorResponses(400, 401, 402, 429, 500);

export const resourceContract = {
  list: defineRoute({
    operationId: 'listResources', method: 'get', path: '/v1/resource/all', tag, security: 'apiKey', roles: ANY_ROLE,
    summary: 'List the organisation\'s resources, newest first',
    responses: { 200: { description: 'The resources.', schema: ResourceListSchema }, ...errorResponses(401, 500) },
  }),
  get: defineRoute({
    operationId: 'getResource', method: 'get', path: '/v1/resource/{id}', tag, security: 'apiKey', roles: ANY_ROLE,
    summary: 'Get a resource', params: IdParamsSchema,
    responses: { 200: { description: 'The resource.', schema: ResourceSchema }, ...errorResponses(400, 401, 404, 500) },
  }),
  remove: defineRoute({
    operationId: 'deleteResource', method: 'delete', path: '/v1/resource/{id}', tag, security: 'apiKey', roles: MANAGERS,
    summary: 'Delete a resource; 409 listing the chatbots that still use it', params: IdParamsSchema,
    responses: { 200: { description: 'The deleted resource.', schema: ResourceSchema }, ...errorResponses(400, 401, 404, 409, 500) },
  }),
  createFile: defineRoute({
    operationId: 'createFileResource', method: 'post', path: '/v1/resource/file', tag, security: 'apiKey', roles: MANAGERS,
    summary: 'Upload a PDF or MP4, or (extension) a document (type by content; under 1000 MB; videos under 120 minutes)',
    description: 'A PDF is read page by page: pages with a text layer as they are, scanned pages (no text layer) by OCR '
      + '(English; at most OCR_MAX_PAGES of them per PDF, 100 by default). Every passage keeps its page number. '
      + 'The resource ends FAILED_NO_TEXT_FOUND only when OCR finds no text either. '
      + 'An MP4 is read from its own subtitle track; without one its speech is transcribed, by the configured transcription '
      + 'provider or else offline by Whisper tiny (once the server ran `npm run install:transcription`), while `processingProgress` '
      + 'says how much of the audio is done. Every passage of a video carries its moment (`timestampSec` in passages and sources). '
      + 'A video with neither subtitles nor a way to transcribe it ends FAILED_NO_TEXT_FOUND, `failureReason` saying why. '
      + 'Extension: a Word document (DOCX), PowerPoint slides (PPTX), or a UTF-8 Markdown, plain text, HTML or CSV file, '
      + 'recognised by content, becomes a `DOCUMENT` resource with `documentFormat`: headings, lists and tables keep their '
      + 'structure, slides are numbered as pages, each CSV row is one passage with its header names. A document over the '
      + 'parser\'s limits (a zip bomb, a text over 50 MB, HTML nested over 1,000 deep, a CSV over 20,000 rows) ends FAILED '
      + 'with `failureReason`. Any other file is a 400.',
    bodyType: 'multipart', body: FileResourceUploadSchema,
    responses: { ...created, ...creationErrors },
  }),
  createText: defineRoute({
    operationId: 'createTextResource', method: 'post', path: '/v1/resource/text', tag, security: 'apiKey', roles: MANAGERS,
    summary: 'Add raw text (up to 5,000,000 characters)', body: TextResourceCreateSchema,
    responses: { ...created, ...creationErrors },
  }),
  createVideoHost: defineRoute({
    operationId: 'createHostedVideoResource', method: 'post', path: '/v1/resource/video-host', tag, security: 'apiKey', roles: MANAGERS,
    summary: 'Add a hosted video; its title and captions are read from the video host', body: VideoHostResourceCreateSchema,
    responses: { ...created, ...creationErrors },
  }),
  createWebsite: defineRoute({
    operationId: 'createWebsiteResource', method: 'post', path: '/v1/resource/website', tag, security: 'apiKey', roles: MANAGERS,
    summary: 'Crawl a page and exactly the given sub-links, re-synced by `syncFrequency`', body: WebsiteResourceCreateSchema,
    responses: { ...created, ...creationErrors },
  }),
  chat: defineRoute({
    operationId: 'chatWithResource', method: 'post', path: '/v1/resource/chat', tag, security: 'apiKey', roles: ANY_ROLE,
    summary: 'Ask one resource', body: ResourceChatBodySchema,
    responses: { 201: { description: CHAT_RESPONSE_DESCRIPTION, schema: ChatResponseSchema }, ...errorResponses(400, 401, 402, 404, 500) },
  }),
  chatStream: defineRoute({
    operationId: 'chatWithResourceStream', method: 'post', path: '/v1/resource/chat-stream', tag, security: 'apiKey', roles: ANY_ROLE,
    summary: 'Ask one resource; the answer streams as Server-Sent Events', body: ResourceChatBodySchema,
    responses: { 201: { description: STREAM_DESCRIPTION, contentType: 'text/event-stream' }, ...errorResponses(400, 401, 402, 404, 500) },
  }),
  getText: defineRoute({
    operationId: 'getTextResourceContent', method: 'get', path: '/v1/resource/text/{id}', tag, security: 'apiKey', roles: ANY_ROLE,
    summary: 'The text of a text resource, to edit it (extension)', description: 'Another type\'s id is a 400 naming its type.',
    params: IdParamsSchema,
    responses: { 200: { description: 'Its name, text and tags.', schema: TextResourceContentSchema }, ...errorResponses(400, 401, 404, 500) },
  }),
  updateText: defineRoute({
    operationId: 'updateTextResource', method: 'put', path: '/v1/resource/text/{id}', tag, security: 'apiKey', roles: MANAGERS,
    summary: 'Edit a text resource (extension): any of name, content, tags',
    description: 'A content change re-indexes the resource under the same id (`DONE → IN_PROGRESS → DONE`); until the new text is '
      + 'indexed, chat still answers from the old one. Another type\'s id is a 400 naming its type.',
    params: IdParamsSchema, body: TextResourceUpdateSchema,
    responses: { 200: { description: 'The resource.', schema: ResourceSchema }, ...errorResponses(400, 401, 402, 404, 500) },
  }),
  getWebsite: defineRoute({
    operationId: 'getWebsiteResourceSettings', method: 'get', path: '/v1/resource/website/{id}', tag, security: 'apiKey', roles: ANY_ROLE,
    summary: 'The settings of a website resource as given, to edit them (extension)', description: 'Another type\'s id is a 400 naming its type.',
    params: IdParamsSchema,
    responses: { 200: { description: 'Its URL, sub-links, sync frequency, settings and tags.', schema: WebsiteResourceContentSchema }, ...errorResponses(400, 401, 404, 500) },
  }),
  updateWebsite: defineRoute({
    operationId: 'updateWebsiteResource', method: 'put', path: '/v1/resource/website/{id}', tag, security: 'apiKey', roles: MANAGERS,
    summary: 'Edit a website resource (extension): any of url, subLinks, syncFrequency, settings, tags',
    description: '`settings`, when given, replaces the stored settings whole (bounds and checks as at creation). A change of '
      + '`url`, `subLinks` or `settings` re-crawls the website under the same id (`NOT_STARTED` until the crawl starts, then '
      + '`IN_PROGRESS`, then `DONE`); until the new crawl is in, chat answers from the old pages. A change of `syncFrequency` '
      + 'counts the next sync from the last one. Another type\'s id is a 400 naming its type.',
    params: IdParamsSchema, body: WebsiteResourceUpdateSchema,
    responses: { 200: { description: 'The resource.', schema: ResourceSchema }, ...errorResponses(400, 401, 404, 500) },
  }),
  sync: defineRoute({
    operationId: 'syncResource', method: 'post', path: '/v1/resource/{id}/sync', tag, security: 'apiKey', roles: MANAGERS,
    summary: 'Sync a website or hosted video now (extension)',
    description: 'Queues a new crawl (WEB) or captions fetch (HOSTED_VIDEO); the old content answers until the new is in, and the '
      + '`syncFrequency` schedule continues from this sync. 409 while a sync of the resource is queued or running; 400 for other types.',
    params: IdParamsSchema,
    responses: { 202: { description: 'The resource; the sync runs in the background.', schema: ResourceSchema }, ...errorResponses(400, 401, 404, 409, 500) },
  }),
  createQa: defineRoute({
    operationId: 'createQaResource', method: 'post', path: '/v1/resource/qa', tag, security: 'apiKey', roles: MANAGERS,
    summary: 'Add saved answers (extension): questions answered in the owner\'s own words',
    description: 'A `QA` resource holds 1 to 1,000 pairs, each of 1 to 20 questions (up to 500 characters each) and an answer '
      + '(up to 5,000 characters). It is indexed like any resource and attached to chatbots through `resourceIds`. When a '
      + 'visitor\'s question matches one of a pair\'s questions (by meaning with the built-in sentence encoder, else by words), '
      + 'the built-in engine answers with the pair\'s answer exactly as written, a provider model receives it as the first '
      + 'passage marked as the owner\'s answer, a restricted chatbot never answers it with its restrict text, and the '
      + 'answer\'s `sources` name the pair (`pairId`). Matching prefers no answer to a wrong one: a question about a '
      + 'sibling subject ("Is dinner included?" against "Is breakfast included?") never matches, so give each pair the '
      + 'phrasings visitors use as further questions. Counts against the same creation rate limit and plan as the other '
      + 'creation endpoints.',
    body: QaResourceCreateSchema,
    responses: { ...created, ...creationErrors },
  }),
  getQa: defineRoute({
    operationId: 'getQaResourceContent', method: 'get', path: '/v1/resource/qa/{id}', tag, security: 'apiKey', roles: ANY_ROLE,
    summary: 'The saved answers of a QA resource, each with its stable id (extension)', description: 'Another type\'s id is a 400 naming its type.',
    params: IdParamsSchema,
    responses: { 200: { description: 'Its name, tags and pairs in order.', schema: QaResourceContentSchema }, ...errorResponses(400, 401, 404, 500) },
  }),
  updateQa: defineRoute({
    operationId: 'updateQaResource', method: 'put', path: '/v1/resource/qa/{id}', tag, security: 'apiKey', roles: MANAGERS,
    summary: 'Edit a QA resource (extension): any of name, tags, pairs',
    description: '`pairs` replaces every pair; a pair sent with the `id` of one of the resource\'s pairs keeps that id (another id is '
      + 'a 400), one without gets a new id. New pairs re-index the resource under the same id: it is `NOT_STARTED` until the '
      + 'ingestion job takes it, then `IN_PROGRESS`, then `DONE`; until then chat answers from the old pairs. A change of name or '
      + 'tags alone does not re-index. Another type\'s id is a 400 naming its type.',
    params: IdParamsSchema, body: QaResourceUpdateSchema,
    responses: { 200: { description: 'The resource.', schema: ResourceSchema }, ...errorResponses(400, 401, 402, 404, 500) },
  }),
  addQaPair: defineRoute({
    operationId: 'addQaPair', method: 'post', path: '/v1/resource/qa/{id}/pairs', tag, security: 'apiKey', roles: MANAGERS,
    summary: 'Add one saved answer to a QA resource (extension)',
    description: 'Appended after the others; the resource is re-indexed (`NOT_STARTED → IN_PROGRESS → DONE`) and the pair answers once '
      + 'it is `DONE`. 400 when the resource already holds 1,000 pairs or is of another type.',
    params: IdParamsSchema, body: QaPairInputSchema,
    responses: { 201: { description: 'The new pair with its id.', schema: QaPairSchema }, ...errorResponses(400, 401, 402, 404, 500) },
  }),
  removeQaPair: defineRoute({
    operationId: 'deleteQaPair', method: 'delete', path: '/v1/resource/qa/{id}/pairs/{pairId}', tag, security: 'apiKey', roles: MANAGERS,
    summary: 'Delete one saved answer of a QA resource (extension)',
    description: 'The resource is re-indexed (`NOT_STARTED → IN_PROGRESS → DONE`); once it is `DONE` again the pair no longer answers. '
      + 'A resource may be left with no pairs (it is then indexed empty). 404 for a pair id that is not one of the resource\'s.',
    params: QaPairParamsSchema,
    responses: { 200: { description: 'The deleted pair.', schema: QaPairSchema }, ...errorResponses(400, 401, 404, 500) },
  }),
  passages: defineRoute({
    operationId: 'listResourcePassages', method: 'get', path: '/v1/resource/{id}/passages', tag, security: 'apiKey', roles: ANY_ROLE,
    summary: 'The indexed passages of a resource, in document order, with their provenance (extension)',
    description: 'Pages of `limit` passages (default 50); `nextCursor` is present while more follow.',
    params: IdParamsSchema, query: PassagesQuerySchema,
    responses: { 200: { description: 'A page of passages.', schema: PassageListingSchema }, ...errorResponses(400, 401, 404, 500) },
  }),
};
