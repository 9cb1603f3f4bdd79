/** The Knowledge page's "Add text" for a question, attaching the text to the chatbot and closing the gap (when given). */
export function addTextLink(question: string, chatbotId: string, gapId?: string): string {
  const query = new URLSearchParams({ addText: question, ...(chatbotId ? { chatbot: chatbotId } : {}), ...(gapId ? { gap: gapId } : {}) });
  return `/console/knowledge?${query.toString()}`;
}
