import { z } from 'zod';
import { ModelSchema } from './chatbot-enums.schema.js';

/** How one API model name is answered on this service (extension): by a provider's model, or by the built-in engine. */
export const ModelRoutingSchema = z.object({
  name: ModelSchema,
  engine: z.enum(['provider', 'local']).meta({ description: '`local`: the built-in offline engine answers (the family\'s provider has no credentials here).' }),
  provider: z.enum(['openai', 'anthropic', 'google']).optional()
    .meta({ description: 'The provider family (OpenAI or any OpenAI-compatible server, Anthropic, Google); absent for `local`.' }),
  providerModel: z.string().optional().meta({ description: 'The provider\'s model that answers, after `MODEL_MAP`; absent for `local`.' }),
});
export type ModelRouting = z.infer<typeof ModelRoutingSchema>;

/** `GET /v1/model/all` (extension). */
export const ModelRoutingListSchema = z.object({ models: z.array(ModelRoutingSchema) });
export type ModelRoutingList = z.infer<typeof ModelRoutingListSchema>;
