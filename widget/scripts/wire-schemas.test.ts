import { EmbedConfigSchema, IdSchema } from '@parley/shared';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { matches } from '../src/api/json-schema.js';
import { toCheckableSchema, wireSchemas } from './wire-schemas.js';

describe('wireSchemas', () => {
  test('turns every shared schema the widget reads into JSON Schema without descriptions', () => {
    const schemas = wireSchemas();
    expect(Object.keys(schemas).sort()).toEqual([
      'EmbedConfigSchema', 'EmbedConversationSchema', 'EmbedSessionSchema', 'ErrorBodySchema', 'FeedbackSchema', 'LeadSchema', 'StreamingEventSchema',
    ]);
    expect(JSON.stringify(schemas)).not.toMatch(/"description"|"\$schema"/);
    expect(schemas.EmbedConfigSchema.properties?.id).toEqual({ type: 'string', pattern: '^[0-9a-f]{24}$' });
  });

  test('leaves out z.int()\'s safe range, which type integer carries', () => {
    expect(toCheckableSchema('n', z.int())).toEqual({ type: 'integer' });
    expect(toCheckableSchema('n', z.int().min(1))).toEqual({ type: 'integer', minimum: 1 });
    expect(matches(toCheckableSchema('n', z.int()), 2 ** 53)).toBe(false);
    expect(z.int().safeParse(2 ** 53).success).toBe(false);
  });

  test('refuses what the widget could not check as zod does, naming the schema and the place', () => {
    const refusals: [z.core.$ZodType, RegExp][] = [
      [z.object({ name: z.string().refine((value) => value !== 'x') }), /at \/properties\/name: .* custom/],
      [z.object({ email: z.string().trim() }), /overwrite/],
      [z.string().regex(/^a$/i), /string_format regex/],
      [z.email(), /string_format email/],
      [z.union([z.string(), z.int()]), /cannot check anyOf/],
      [z.string().nullable(), /cannot check a zod nullable/],
      [z.string().transform((value) => value.length), /cannot check a zod pipe/],
      [z.looseObject({ id: IdSchema }), /additionalProperties/],
      [EmbedConfigSchema.extend({ openedAt: z.iso.datetime() }), /EmbedConfig at \/properties\/openedAt/],
    ];
    for (const [schema, message] of refusals) expect(() => toCheckableSchema('EmbedConfig', schema)).toThrow(message);
  });
});
