import { z } from 'zod';

/**
 * A chatbot password: at least 8 characters with an upper-case letter, a lower-case letter, a
 * digit and a special character (service-api.md § Limits).
 */
export const ChatbotPasswordSchema = z
  .string()
  .min(8, 'must be at least 8 characters')
  .max(200, 'must be at most 200 characters')
  .regex(/[A-Z]/, 'must contain an upper-case letter')
  .regex(/[a-z]/, 'must contain a lower-case letter')
  .regex(/\d/, 'must contain a digit')
  .regex(/[^A-Za-z0-9]/, 'must contain a special character');
