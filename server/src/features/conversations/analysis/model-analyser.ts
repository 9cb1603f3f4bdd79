import type { LanguageModelV3 } from '@ai-sdk/provider';
import { generateText, Output } from 'ai';
import { z } from 'zod';
import type { AnalysisResult, ChatMessage } from '@parley/shared';
import type { AnalysisCustomField } from '../../../config.js';

/** The transcript sent to the model is cut to its last this-many characters. */
const MAX_TRANSCRIPT_CHARS = 60_000;

const SYSTEM = [
  'You analyse a conversation between a website visitor and a chatbot for the chatbot\'s owner.',
  'Write in the language of the conversation. Use only what the conversation says; never invent facts.',
  'summary: two or three sentences. keyPoints: the main facts and requests, at most 8.',
  'nextSteps: concrete actions for the owner, at most 5, or none.',
  'sentimentAnalysis: the visitor\'s sentiment, one of positive, neutral, negative, mixed.',
  'intentClassification: the visitor\'s main intent as one short snake_case label',
  '(e.g. shipping, pricing, purchase, wholesale, support, complaint, handoff, account, information, feedback).',
  'customExtractedData: each field as described, or null when the conversation does not say.',
].join(' ');

function outputSchema(fields: readonly AnalysisCustomField[]) {
  const base = {
    summary: z.string(),
    keyPoints: z.array(z.string()),
    nextSteps: z.array(z.string()),
    sentimentAnalysis: z.string(),
    intentClassification: z.string(),
  };
  if (fields.length === 0) return z.object(base);
  const custom = Object.fromEntries(fields.map((field) => [field.name, z.string().nullable().describe(field.description)]));
  return z.object({ ...base, customExtractedData: z.object(custom) });
}

/** The conversation as plain text, newest part kept when it is too long for one prompt. */
export function toTranscript(messages: readonly ChatMessage[]): string {
  const transcript = messages.map((message) => `${message.fromUser ? 'Visitor' : 'Chatbot'}: ${message.text}`).join('\n\n');
  return transcript.length <= MAX_TRANSCRIPT_CHARS ? transcript : `[…]\n${transcript.slice(-MAX_TRANSCRIPT_CHARS)}`;
}

const cleanList = (items: readonly string[], max: number) => items.map((item) => item.trim()).filter(Boolean).slice(0, max);

/**
 * Asks the chatbot's model for the analysis as structured output, validated with zod (an
 * invalid answer throws, and the job retries). Custom fields the model leaves null are omitted.
 */
export async function analyseWithModel(
  model: LanguageModelV3, messages: readonly ChatMessage[], fields: readonly AnalysisCustomField[], signal: AbortSignal,
): Promise<Omit<AnalysisResult, 'unansweredQuestions'>> {
  const { output } = await generateText({
    model, system: SYSTEM, maxRetries: 1, abortSignal: signal,
    prompt: `Analyse this conversation.\n\n${toTranscript(messages)}`,
    output: Output.object({ schema: outputSchema(fields), name: 'conversation_analysis' }),
  });
  const custom = 'customExtractedData' in output ? output.customExtractedData as Record<string, string | null> : {};
  const customExtractedData = Object.fromEntries(Object.entries(custom).filter(([, value]) => typeof value === 'string' && value.trim() !== ''));
  return {
    summary: output.summary.trim(),
    extractedData: {
      keyPoints: cleanList(output.keyPoints, 10),
      nextSteps: cleanList(output.nextSteps, 10),
      sentimentAnalysis: output.sentimentAnalysis.trim(),
      intentClassification: output.intentClassification.trim(),
    },
    customExtractedData,
  };
}
