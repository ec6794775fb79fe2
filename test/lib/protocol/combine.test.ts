import fc from 'fast-check';
import t from 'tap';
import { UsageError } from '../../../lib/errors.js';
import { NO_INPUT, NO_PROMPT, combinePrompt } from '../../../lib/protocol/combine.js';
import type { InputEvent } from '../../../lib/protocol/types.js';

const prompt = (content: string): InputEvent => ({ schemaVersion: 1, type: 'prompt', content });
const message = (content: string): InputEvent => ({ schemaVersion: 1, type: 'message', role: 'user', content });

t.test('one event gives its content', async (t) => {
  t.equal(combinePrompt([message('Inspect this repo.')]), 'Inspect this repo.');
});

t.test('contents are joined in order with one blank line, whatever the event type', async (t) => {
  t.equal(combinePrompt([message('Inspect this repo.'), prompt('Return only blockers.'), message('Be brief.')]), 'Inspect this repo.\n\nReturn only blockers.\n\nBe brief.');
});

t.test('each content is trimmed; whitespace inside is kept', async (t) => {
  t.equal(combinePrompt([prompt('  first\n\n'), prompt('\tsecond  line\n third ')]), 'first\n\nsecond  line\n third');
});

t.test('contents that are empty after trimming are dropped', async (t) => {
  t.equal(combinePrompt([prompt('   '), prompt('a'), message('\n\t\n'), prompt('b'), prompt(' ')]), 'a\n\nb');
});

t.test('no events at all: input required', async (t) => {
  t.throws(() => combinePrompt([]), { message: 'Stream-json input required. Pipe JSONL or use --file.', code: 'usage_error', exitCode: 2 });
  t.equal(NO_INPUT, 'Stream-json input required. Pipe JSONL or use --file.');
});

t.test('only blank contents: a prompt or user message is required', async (t) => {
  t.throws(() => combinePrompt([prompt(' '), message('\n')]), { message: 'Stream-json input must include at least one prompt or user message event.', exitCode: 2 });
  t.throws(() => combinePrompt([prompt(' ')]), UsageError);
  t.equal(NO_PROMPT, 'Stream-json input must include at least one prompt or user message event.');
});

t.test('the events are not changed', async (t) => {
  const events = [prompt('  a  '), message(' b ')];
  const copy = structuredClone(events);
  combinePrompt(events);
  t.same(events, copy);
});

t.test('property: the prompt is the trimmed, non-empty contents joined by a blank line', async (t) => {
  const event = fc.tuple(fc.boolean(), fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', '\t', 'é') })).map(([isPrompt, content]) => (isPrompt ? prompt(content) : message(content)));
  fc.assert(
    fc.property(fc.array(event, { minLength: 1, maxLength: 8 }), (events) => {
      const parts = events.map((e) => e.content.trim()).filter((c) => c !== '');
      try {
        const combined = combinePrompt(events);
        return parts.length > 0 && combined === parts.join('\n\n') && combined === combined.trim();
      } catch (error) {
        return parts.length === 0 && error instanceof UsageError && error.message === NO_PROMPT;
      }
    }),
  );
  t.pass('property held');
});
