import { UsageError } from '../errors.js';
import type { ImageInput, InputEvent, PromptRequest } from './types.js';
import type { Step } from '../streams.js';

export const NO_INPUT = 'Stream-json input required. Pipe JSONL or use --file.';
export const NO_PROMPT = 'Stream-json input must include at least one prompt or user message event.';

/**
 * Builds the request the model receives (docs/protocol.md §2) as input events
 * arrive: each content trimmed, empty ones dropped, joined by a blank line; the
 * images of every message, in order. Keeps only what goes into the request,
 * not the events. A request of images alone is a request.
 */
export function createPromptCombiner() {
  // Contents are joined a thousand at a time as they come: a million one-character events hold a few strings, not a million.
  const joined: string[] = [];
  let parts: string[] = [];
  const images: ImageInput[] = [];
  let events = 0;
  return {
    add(event: InputEvent): void {
      events++;
      const content = event.content.trim();
      if (content) parts.push(content);
      if (parts.length >= JOIN_EVERY) {
        joined.push(parts.join('\n\n'));
        parts = [];
      }
      if (event.type === 'message' && 'images' in event && event.images) images.push(...event.images);
    },
    request(): PromptRequest {
      if (events === 0) throw new UsageError(NO_INPUT);
      const all = [...joined, ...parts];
      if (all.length === 0 && images.length === 0) throw new UsageError(NO_PROMPT);
      return { prompt: all.join('\n\n'), ...(images.length ? { images } : {}) };
    },
  };
}

const JOIN_EVERY = 1024;

/** The request of a whole input (see createPromptCombiner). */
export function combineRequest(events: Iterable<InputEvent>): PromptRequest {
  const combiner = createPromptCombiner();
  for (const event of events) combiner.add(event);
  return combiner.request();
}

/** The prompt text of a whole input: its contents trimmed, empty ones dropped, joined by a blank line. */
export const combinePrompt = (events: Iterable<InputEvent>): string => combineRequest(events).prompt;

/** The combine stage's step: input events in, one request out at the end of the input. */
export function combineStep(): Step<InputEvent, PromptRequest> {
  const combiner = createPromptCombiner();
  return { write: (event) => combiner.add(event), end: (emit) => emit(combiner.request()) };
}
