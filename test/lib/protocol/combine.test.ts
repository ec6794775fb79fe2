import fc from '../../helpers/property.js';
import t from 'tap';
import { UsageError } from '../../../lib/errors.js';
import { NO_INPUT, NO_PROMPT, combinePrompt, combineRequest, createPromptCombiner } from '../../../lib/protocol/combine.js';
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

const withImages = (content: string, count: number): InputEvent => ({
  schemaVersion: 2,
  type: 'message',
  role: 'user',
  content,
  images: Array.from({ length: count }, (_, n) => ({ mediaType: 'image/png' as const, data: Buffer.from(`${content} image ${n}`).toString('base64') })),
});

t.test('version 2: the images of every message go with the prompt, in order', async (t) => {
  const first = withImages('Look at these.', 2);
  const second = withImages('And this one.', 1);
  const request = combineRequest([first, { schemaVersion: 2, type: 'prompt', content: 'Compare them.' }, second]);
  t.equal(request.prompt, 'Look at these.\n\nCompare them.\n\nAnd this one.');
  t.same(request.images, [...(first as { images: unknown[] }).images, ...(second as { images: unknown[] }).images]);
});

t.test('version 2: a message of images only is a request, with an empty prompt text', async (t) => {
  const request = combineRequest([withImages('', 1)]);
  t.equal(request.prompt, '');
  t.equal(request.images?.length, 1);
});

t.test('no images: the request has no images field at all', async (t) => {
  t.same(combineRequest([prompt('hi')]), { prompt: 'hi' });
});

t.test('the combiner keeps what goes into the request, taking events one at a time', async (t) => {
  const combiner = createPromptCombiner();
  t.throws(() => combiner.request(), { message: NO_INPUT });
  combiner.add(prompt('  '));
  t.throws(() => combiner.request(), { message: NO_PROMPT });
  combiner.add(withImages(' ', 1));
  t.same(combiner.request().prompt, '');
  combiner.add(prompt('text'));
  t.same(combiner.request().prompt, 'text');
});

t.test('many events: the same prompt as one join, whatever the count (contents are joined in batches as they come)', async (t) => {
  for (const count of [1023, 1024, 1025, 5000]) {
    const events = Array.from({ length: count }, (_, n) => prompt(n % 7 === 0 ? ' ' : `e${n}`));
    t.equal(combineRequest(events).prompt, events.map((e) => e.content.trim()).filter(Boolean).join('\n\n'), `${count} events`);
  }
});
