import fc from '../../helpers/property.js';
import t from 'tap';
import { capOutput, MAX_OUTPUT_BYTES, utf8Prefix } from '../../../lib/tools/output.js';

t.test('text within the limit passes unchanged', async (t) => {
  t.same(capOutput('hello', 5), { output: 'hello', truncated: false });
  t.same(capOutput(''), { output: '', truncated: false });
  const exactlyFull = 'x'.repeat(MAX_OUTPUT_BYTES);
  t.same(capOutput(exactlyFull), { output: exactlyFull, truncated: false });
});

t.test('text over the limit is cut to the limit and flagged', async (t) => {
  t.same(capOutput('hello world', 5), { output: 'hello', truncated: true });
  const result = capOutput('x'.repeat(MAX_OUTPUT_BYTES + 1));
  t.equal(result.output.length, MAX_OUTPUT_BYTES);
  t.equal(result.truncated, true);
});

t.test('the cut never splits a multi-byte character', async (t) => {
  // '€' is 3 bytes and '😀' 4 in UTF-8.
  t.same(capOutput('a€', 3), { output: 'a', truncated: true });
  t.same(capOutput('a€', 4), { output: 'a€', truncated: false });
  t.same(capOutput('😀😀', 7), { output: '😀', truncated: true });
  t.same(capOutput('😀', 3), { output: '', truncated: true });
});

t.test('property: the output is the longest whole-character prefix within the limit', async (t) => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), fc.integer({ min: 0, max: 64 }), (text, maxBytes) => {
      const { output, truncated } = capOutput(text, maxBytes);
      if (!text.startsWith(output) || Buffer.byteLength(output) > maxBytes) return false;
      if (!truncated) return output === text;
      const nextCharacter = String.fromCodePoint(text.codePointAt(output.length)!);
      return Buffer.byteLength(output + nextCharacter) > maxBytes;
    }),
  );
  t.pass('property held');
});

t.test('utf8Prefix: the first bytes of UTF-8, ending on a character boundary; within the limit, the same Buffer', async (t) => {
  const bytes = Buffer.from('a€b');
  t.equal(utf8Prefix(bytes, 10), bytes, 'nothing to cut: not copied');
  t.same(utf8Prefix(bytes, 3), Buffer.from('a'));
  t.same(utf8Prefix(bytes, 4), Buffer.from('a€'));
  t.same(utf8Prefix(bytes, 0), Buffer.alloc(0));
});
