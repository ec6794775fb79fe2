import t from 'tap';
import { wireReader } from '../../../lib/providers/wire.js';

// A streamed chunk's fields as the wire format has them: another type is a malformed chunk naming the field and its kind, never its value.

const wire = wireReader('openai');
const malformed = (where: string, kind: string, expected: string) => ({ name: 'ProviderError', code: 'provider_error', exitCode: 3, message: `openai sent a malformed stream chunk: ${where} is ${kind}, not ${expected}.` });

t.test('each reader gives its value, and absent or null as nothing (an empty list for a list)', async (t) => {
  t.same(wire.object({ a: 1 }, 'x'), { a: 1 });
  t.equal(wire.text('hi', 'x'), 'hi');
  t.equal(wire.count(0, 'x'), 0);
  t.same(wire.list([1], 'x'), [1]);
  for (const nothing of [undefined, null]) {
    t.equal(wire.object(nothing, 'x'), undefined);
    t.equal(wire.text(nothing, 'x'), undefined);
    t.equal(wire.count(nothing, 'x'), undefined);
    t.same(wire.list(nothing, 'x'), []);
  }
});

t.test('another type is a ProviderError that names the field and what it is, never the value', async (t) => {
  t.throws(() => wire.text(5, 'delta.content'), malformed('delta.content', 'a number', 'a string'));
  t.throws(() => wire.object(['sk-secret'], 'choices[0]'), malformed('choices[0]', 'an array of string', 'an object'));
  t.throws(() => wire.list({}, 'choices'), malformed('choices', 'an object', 'a list'));
  t.throws(() => wire.count('lots', 'usage.prompt_tokens'), malformed('usage.prompt_tokens', 'a string', 'a whole number, 0 or more'));
  for (const bad of [-1, 1.5, Infinity]) t.throws(() => wire.count(bad, 'n'), { message: /n is a number, not a whole number/ }, String(bad));
});

t.test('a required object: absent or null is malformed too', async (t) => {
  t.throws(() => wire.object(null, 'a chunk', true), malformed('a chunk', 'null', 'an object'));
  t.throws(() => wire.object(undefined, 'delta', true), malformed('delta', 'undefined', 'an object'));
});
