import t from 'tap';
import { ProviderError } from '../../../lib/errors.js';
import { boundBody } from '../../../lib/providers/event-bound.js';

/** The pieces through boundBody (bound: `max` bytes): what came out, how often bytes were reported, and the failure. */
async function through(pieces: string[], max: number) {
  let reports = 0;
  const stream = boundBody(new Blob(pieces).stream(), 'test', () => reports++, max);
  let out = '';
  try {
    for await (const chunk of stream) out += Buffer.from(chunk).toString();
    return { out, reports, error: undefined };
  } catch (error) {
    return { out, reports, error };
  }
}

t.test('events under the bound pass as they came, however many; a blank line (LF or CRLF) ends one', async (t) => {
  const event = `data: ${'a'.repeat(60)}\n\n`;
  const crlf = `data: ${'b'.repeat(60)}\r\n\r\n`;
  const all = [event.repeat(50), crlf.repeat(50)];
  const { out, error } = await through(all, 100);
  t.equal(error, undefined);
  t.equal(out, all.join(''));
});

t.test('an event past the bound fails, whether one line or many short lines, split across pieces or not', async (t) => {
  for (const pieces of [[`data: ${'a'.repeat(200)}\n\n`], ['data: aaaa\n'.repeat(30)], ['data: ', 'a'.repeat(60), 'a'.repeat(60), 'a'.repeat(60)]]) {
    const { error } = await through(pieces, 100);
    t.type(error, ProviderError);
    t.match((error as Error).message, /^test sent one stream event of more than 100 bytes/);
  }
});

t.test('the body is read only as its reader reads: nothing ahead of it', async (t) => {
  let pulls = 0;
  const source = new ReadableStream<Uint8Array>({ pull: (controller) => controller.enqueue(Buffer.from(`data: ${++pulls}\n\n`)) }, { highWaterMark: 0 });
  const reader = boundBody(source, 'test', () => {}).getReader();
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  await turn();
  t.equal(pulls, 0, 'nothing before the first read');
  t.equal(Buffer.from((await reader.read()).value!).toString(), 'data: 1\n\n');
  await turn();
  t.equal(pulls, 1, 'one event read, one piece taken');
  await reader.cancel();
});
