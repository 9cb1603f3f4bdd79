import { IdParamsSchema } from '../common/id.schema.js';
import { ChatResponseSchema, ResourceChatBodySchema } from '../chat/chat-body.schema.js';
import {
  FileResourceUploadSchema, TextResourceCreateSchema, VideoHostResourceCreateSchema, WebsiteResourceCreateSchema,
} from '../resources/resource-create.schema.js';
import { ResourceListSchema, ResourceSchema } from '../resources/resource.schema.js';
import { STREAM_DESCRIPTION } from './chatbots.contract.js';
import { defineRoute, errorResponses } from './route-contract.js';

const tag = 'Resources';
const created = { 201: { description: 'The new resource, `NOT_STARTED`; processing runs in the background.', schema: ResourceSchema } };
const creationErrors = errorResponses(400, 401, 402, 429, 500);

export const resourceContract = {
  list: defineRoute({
    operationId: 'listResources', method: 'get', path: '/v1/resource/all', tag, security: 'apiKey',
    summary: 'List the organisation\'s resources, newest first',
    responses: { 200: { description: 'The resources.', schema: ResourceListSchema }, ...errorResponses(401, 500) },
  }),
  get: defineRoute({
    operationId: 'getResource', method: 'get', path: '/v1/resource/{id}', tag, security: 'apiKey',
    summary: 'Get a resource', params: IdParamsSchema,
    responses: { 200: { description: 'The resource.', schema: ResourceSchema }, ...errorResponses(400, 401, 404, 500) },
  }),
  remove: defineRoute({
    operationId: 'deleteResource', method: 'delete', path: '/v1/resource/{id}', tag, security: 'apiKey',
    summary: 'Delete a resource; 409 listing the chatbots that still use it', params: IdParamsSchema,
    responses: { 200: { description: 'The deleted resource.', schema: ResourceSchema }, ...errorResponses(400, 401, 404, 409, 500) },
  }),
  createFile: defineRoute({
    operationId: 'createFileResource', method: 'post', path: '/v1/resource/file', tag, security: 'apiKey',
    summary: 'Upload a PDF or MP4 (type by content; under 1000 MB; videos under 120 minutes)',
    bodyType: 'multipart', body: FileResourceUploadSchema,
    responses: { ...created, ...creationErrors },
  }),
  createText: defineRoute({
    operationId: 'createTextResource', method: 'post', path: '/v1/resource/text', tag, security: 'apiKey',
    summary: 'Add raw text (up to 5,000,000 characters)', body: TextResourceCreateSchema,
    responses: { ...created, ...creationErrors },
  }),
  createVideoHost: defineRoute({
    operationId: 'createHostedVideoResource', method: 'post', path: '/v1/resource/video-host', tag, security: 'apiKey',
    summary: 'Add a hosted video; its title and captions are read from the video host', body: VideoHostResourceCreateSchema,
    responses: { ...created, ...creationErrors },
  }),
  createWebsite: defineRoute({
    operationId: 'createWebsiteResource', method: 'post', path: '/v1/resource/website', tag, security: 'apiKey',
    summary: 'Crawl a page and exactly the given sub-links, re-synced by `syncFrequency`', body: WebsiteResourceCreateSchema,
    responses: { ...created, ...creationErrors },
  }),
  chat: defineRoute({
    operationId: 'chatWithResource', method: 'post', path: '/v1/resource/chat', tag, security: 'apiKey',
    summary: 'Ask one resource', body: ResourceChatBodySchema,
    responses: { 201: { description: 'The answer.', schema: ChatResponseSchema }, ...errorResponses(400, 401, 402, 404, 500) },
  }),
  chatStream: defineRoute({
    operationId: 'chatWithResourceStream', method: 'post', path: '/v1/resource/chat-stream', tag, security: 'apiKey',
    summary: 'Ask one resource; the answer streams as Server-Sent Events', body: ResourceChatBodySchema,
    responses: { 201: { description: STREAM_DESCRIPTION, contentType: 'text/event-stream' }, ...errorResponses(400, 401, 402, 404, 500) },
  }),
};
