import { describe, expect, it } from 'vitest';
import { formatIssues } from '../errors/format-issues.js';
import { ChatbotCreateSchema } from './chatbot-create.schema.js';
import { ChatbotPasswordSchema } from './chatbot-password.schema.js';
import { GradientColorsUpdateSchema } from './chatbot-update.schema.js';
import { AllowedDomainSchema } from './website-integration.schema.js';

describe('ChatbotCreateSchema', () => {
  it('fills the contract defaults from a name alone', () => {
    expect(ChatbotCreateSchema.parse({ name: 'Bot' })).toMatchObject({
      model: 'alpha-4o-mini', accessLevel: 'PUBLIC', personalityType: 'ASSISTANT', toneType: 'FRIENDLY',
      resourceIds: [], tags: [], showBadge: false, enabledEmoji: false, welcomeMessage: 'Hi! How can I help you today?',
    });
  });

  it('reports every problem with the field first', () => {
    const result = ChatbotCreateSchema.safeParse({ name: 3, extra: true, gradientColors: ['#fff'] });
    expect(result.success).toBe(false);
    expect(formatIssues(result.error!.issues)).toEqual([
      'name must be a string', 'gradientColors must contain exactly 4 colors', 'property extra should not exist',
    ]);
  });
});

describe('ChatbotPasswordSchema', () => {
  it.each(['Abcdef1!', 'Str0ng pass', 'ÄbcdefG1#'])('accepts %s', (password) => {
    expect(ChatbotPasswordSchema.safeParse(password).success).toBe(true);
  });
  it.each(['Abc1!', 'abcdefg1!', 'ABCDEFG1!', 'Abcdefgh!', 'Abcdefgh1'])('refuses %s', (password) => {
    expect(ChatbotPasswordSchema.safeParse(password).success).toBe(false);
  });
});

describe('GradientColorsUpdateSchema', () => {
  it('parses the string form, the array form and removal', () => {
    expect(GradientColorsUpdateSchema.parse('#111,#222,#333,#444')).toEqual(['#111', '#222', '#333', '#444']);
    expect(GradientColorsUpdateSchema.parse(['#111', '#222', '#333', '#444'])).toEqual(['#111', '#222', '#333', '#444']);
    expect(GradientColorsUpdateSchema.parse('')).toBeNull();
    expect(GradientColorsUpdateSchema.safeParse('#111,#222').success).toBe(false);
  });
});

describe('AllowedDomainSchema', () => {
  it.each(['example.com', '*.example.com', 'localhost', 'a-b.c.example'])('accepts %s', (domain) => {
    expect(AllowedDomainSchema.safeParse(domain).success).toBe(true);
  });
  it.each(['https://example.com', 'example.com/path', '*example.com', 'exa mple.com', '*.*.example.com', ''])('refuses %s', (domain) => {
    expect(AllowedDomainSchema.safeParse(domain).success).toBe(false);
  });
  it('lower-cases', () => expect(AllowedDomainSchema.parse('Example.COM')).toBe('example.com'));
});
