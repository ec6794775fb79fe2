import type { Transform } from 'node:stream';
import { combinePrompt } from '../lib/protocol/combine.js';
import type { InputEvent, PromptRequest } from '../lib/protocol/types.js';
import { mapStream } from '../lib/streams.js';

/** Input events → one `{ prompt }`, at the end of the input: nothing reaches the model unless the whole input was valid. */
export function combine(): Transform {
  const events: InputEvent[] = [];
  return mapStream<InputEvent, PromptRequest>(
    (event) => {
      events.push(event);
      return undefined;
    },
    { flush: () => [{ prompt: combinePrompt(events) }] },
  );
}
