import t from 'tap';
import fc from '../helpers/property.js';
import { startsWithText } from '../../lib/strings.js';

t.test('startsWithText answers as String.prototype.startsWith, at any position, past the end too', async (t) => {
  t.ok(startsWithText('key=value', 'key'));
  t.ok(startsWithText('key=value', '=va', 3));
  t.notOk(startsWithText('key=value', 'value!', 4), 'a prefix running past the end');
  t.ok(startsWithText('abc', '', 3), 'the empty prefix, at the end');
  t.notOk(startsWithText('ab', 'abc'));
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom('a', 'b', '\u00e9', '\ud83d', '\ude00') }), fc.string({ unit: fc.constantFrom('a', 'b', '\u00e9') }), fc.nat(12), (text, prefix, at) => {
      return startsWithText(text, prefix, at) === text.startsWith(prefix, at);
    }),
    { numRuns: 2000 },
  );
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom('a', 'b', '\u00e9', '\ud83d', '\ude00'), minLength: 1 }), fc.nat(), fc.nat(), (text, from, length) => {
      const at = from % text.length;
      return startsWithText(text, text.slice(at, at + length), at) && startsWithText(text, text.slice(at, at + length), at) === text.startsWith(text.slice(at, at + length), at);
    }),
    { numRuns: 2000 },
  );
});
