import { UsageError } from '../errors.js';
import type { InputEvent } from './types.js';

export const NO_INPUT = 'Stream-json input required. Pipe JSONL or use --file.';
export const NO_PROMPT = 'Stream-json input must include at least one prompt or user message event.';

/** The prompt the model receives (docs/protocol.md §2): each content trimmed, empty ones dropped, joined by a blank line. */
export function combinePrompt(events: InputEvent[]): string {
  if (events.length === 0) throw new UsageError(NO_INPUT);
  const prompt = events.map((event) => event.content.trim()).filter(Boolean).join('\n\n');
  if (!prompt) throw new UsageError(NO_PROMPT);
  return prompt;
}
