import t from 'tap';
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
