import type { ProviderFamily } from './fake-model-provider.js';

/** The parts of the three families' request bodies the tests read. */
interface ProviderBody {
  model?: string;
  messages: { content: string | { text: string }[] }[];
  system?: string | { text: string }[];
  systemInstruction: { parts: { text: string }[] };
  contents: { parts: { text: string }[] }[];
}

const textOf = (content: string | { text: string }[] | undefined) => (Array.isArray(content) ? content.map((part) => part.text).join('') : content ?? '');

/** The system prompt, the last user message and the model as each family's request body carries them. */
export function requestParts(family: ProviderFamily, raw: Record<string, unknown>): { system: string; lastUser: string; model?: string } {
  const body = raw as unknown as ProviderBody;
  if (family === 'openai') return { system: textOf(body.messages[0]?.content), lastUser: textOf(body.messages.at(-1)?.content), model: body.model };
  if (family === 'anthropic') return { system: textOf(body.system), lastUser: textOf(body.messages.at(-1)?.content), model: body.model };
  return { system: textOf(body.systemInstruction.parts), lastUser: textOf(body.contents.at(-1)?.parts) };
}
