import { ModelRoutingListSchema } from '../chatbots/model-routing.schema.js';
import { ANY_ROLE, defineRoute, errorResponses } from './route-contract.js';

export const modelsContract = {
  list: defineRoute({
    operationId: 'listModels', method: 'get', path: '/v1/model/all', tag: 'Chatbots', security: 'apiKey', roles: ANY_ROLE,
    summary: 'Which engine answers each model name here (extension)',
    description: 'Every value of a chatbot\'s `model`, with what answers it on this service: a provider\'s model (with `MODEL_MAP` '
      + 'applied), or the built-in engine when the family\'s provider has no credentials. The same for every organisation.',
    responses: { 200: { description: 'The model names in the contract\'s order.', schema: ModelRoutingListSchema }, ...errorResponses(401, 500) },
  }),
};
