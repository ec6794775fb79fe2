import t from 'tap';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { combine } from '../../transforms/combine.js';
import { through, throughUntilError } from '../helpers/streams.js';

const prompt = (content: string) => ({ schemaVersion: 1, type: 'prompt', content });
const message = (content: string) => ({ schemaVersion: 1, type: 'message', role: 'user', content });

t.test('joins every content, trimmed, with one blank line, once the input ends', async (t) => {
  t.same(await through(combine(), [message('  Inspect this repo.\n'), prompt('   '), prompt('Return only blockers.')]), [
    { prompt: 'Inspect this repo.\n\nReturn only blockers.' },
  ]);
});

t.test('gives nothing before the input ends', async (t) => {
  const stage = combine();
  const seen: unknown[] = [];
  stage.on('data', (chunk) => seen.push(chunk));
  stage.write(prompt('one'));
  await new Promise((resolve) => setImmediate(resolve));
  t.same(seen, []);
  stage.end();
  await new Promise((resolve) => stage.on('end', resolve));
  t.same(seen, [{ prompt: 'one' }]);
});

t.test('no input at all', async (t) => {
  const { error } = await throughUntilError(combine(), []);
  t.equal(error?.message, 'Stream-json input required. Pipe JSONL or use --file.');
});

t.test('only blank contents', async (t) => {
  const { error } = await throughUntilError(combine(), [prompt('  '), message('\n')]);
  t.equal(error?.message, 'Stream-json input must include at least one prompt or user message event.');
});

t.test('the stage keeps no event: once taken, an input event can be collected (10^6 tiny events do not pile up)', async (t) => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const stage = combine();
  const out: unknown[] = [];
  stage.on('data', (request) => out.push(request));
  const refs: WeakRef<object>[] = [];
  for (let n = 0; n < 2000; n++) {
    const event = prompt(`part ${n}`);
    refs.push(new WeakRef(event));
    if (!stage.write(event)) await new Promise((resolve) => stage.once('drain', resolve));
  }
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  // the engine may keep the last one or two alive a while (an inline cache): not the 2000 of a list
  t.ok(refs.filter((ref) => ref.deref() !== undefined).length <= 2, 'the events were collected before the input ended');
  stage.end();
  await new Promise((resolve) => stage.on('end', resolve));
  t.match(out, [{ prompt: /^part 0\n\npart 1\n\n.*part 1999$/s }]);
});
