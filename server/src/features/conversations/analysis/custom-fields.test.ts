import { describe, expect, it } from 'vitest';
import { loadConfig, parseAnalysisCustomFields } from '../../../config.js';
import { extractCustomFields } from './custom-fields.js';

describe('ANALYSIS_CUSTOM_FIELDS', () => {
  it('reads a JSON object or a name: description list', () => {
    expect(parseAnalysisCustomFields('{"budget": "The budget", "companyName": "Where they work"}')).toEqual([
      { name: 'budget', description: 'The budget' }, { name: 'companyName', description: 'Where they work' },
    ]);
    expect(parseAnalysisCustomFields('budget: The budget; company: Where they work\nemail:Their email')).toEqual([
      { name: 'budget', description: 'The budget' }, { name: 'company', description: 'Where they work' },
      { name: 'email', description: 'Their email' },
    ]);
    expect(parseAnalysisCustomFields(undefined)).toEqual([]);
    expect(loadConfig({}).analysisCustomFields).toEqual([]);
  });

  it.each(['budget', 'bad name: x', '{"budget": 5}', '["a"]', '{not json'])('refuses %j at startup', (value) => {
    expect(() => loadConfig({ ANALYSIS_CUSTOM_FIELDS: value })).toThrow(/^Invalid configuration: ANALYSIS_CUSTOM_FIELDS /);
  });
});

describe('extractCustomFields', () => {
  const fields = [
    { name: 'email', description: 'The visitor\'s email address' },
    { name: 'phone', description: 'A phone number to call back' },
    { name: 'name', description: 'The visitor\'s name' },
    { name: 'budget', description: 'How much the visitor wants to spend' },
    { name: 'teamSize', description: 'How many people are in the visitor\'s team' },
    { name: 'website', description: 'The company website' },
  ];

  it('finds contact details by pattern, a name, an amount and the best-matching sentence', () => {
    expect(extractCustomFields([
      'Hi, my name is Ada Lovelace. Our team has 12 people in the data group.',
      'We can spend about €5k per month. Reach me at ada@example.org or +44 20 7946 0958, site https://example.org/about.',
    ], fields)).toEqual({
      email: 'ada@example.org', phone: '+44 20 7946 0958', name: 'Ada Lovelace', budget: '€5k',
      teamSize: 'Our team has 12 people in the data group.', website: 'https://example.org/about',
    });
  });

  it('omits fields the conversation says nothing about', () => {
    expect(extractCustomFields(['Where is your office?'], fields)).toEqual({});
  });
});
