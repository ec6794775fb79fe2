import type { Transform } from 'node:stream';
import { createPromptCombiner } from '../lib/protocol/combine.js';
import type { InputEvent, PromptRequest } from '../lib/protocol/types.js';
import { mapStream } from '../lib/streams.js';

/** Input events → one `{ prompt, images? }`, at the end of the input: nothing reaches the model unless the whole input was valid. */
export function combine(): Transform {
  const combiner = createPromptCombiner();
  return mapStream<InputEvent, PromptRequest>(
    (event) => {
      combiner.add(event);
      return undefined;
    },
    { flush: () => [combiner.request()] },
  );
}
