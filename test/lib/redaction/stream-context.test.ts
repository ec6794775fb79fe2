import t from 'tap';
import { CONTEXT_CHARS, createContext, textAfter } from '../../../lib/redaction/stream-context.js';

t.test('the context keeps the released text from the latest cut that leaves enough of it in view', async (t) => {
  const context = createContext();
  const long = 'x'.repeat(CONTEXT_CHARS);
  context.extend('first release, ');
  context.extend(long);
  t.equal(context.text, long, 'a release of CONTEXT_CHARS on its own is enough: what came before goes');
  context.extend('a short one');
  t.equal(context.text, `${long}a short one`, 'never cut inside a release (a token released whole stays whole)');
  t.equal(context.length, context.text.length);
  t.same(context.view(), { text: `${long}a short one`, cuts: [0, CONTEXT_CHARS, CONTEXT_CHARS + 'a short one'.length] });
});

t.test('textAfter: the context as it would be once more is released, the context left as it was', async (t) => {
  const context = createContext();
  context.extend('abc');
  t.equal(textAfter(context.view(), 'def'), 'abcdef');
  t.equal(textAfter(context.view(), 'y'.repeat(CONTEXT_CHARS)), 'y'.repeat(CONTEXT_CHARS));
  t.equal(context.text, 'abc');
});

t.test('endChars: the last characters of the context, across its releases', async (t) => {
  const context = createContext();
  t.equal(context.endChars(6), '', 'none yet');
  context.extend('ab');
  t.equal(context.endChars(6), 'ab', 'fewer than asked');
  context.extend('cd');
  context.extend('efgh');
  t.equal(context.endChars(6), 'cdefgh', 'from several releases');
  t.equal(context.endChars(2), 'gh');
  context.extend('y'.repeat(CONTEXT_CHARS));
  context.extend('z');
  t.equal(context.endChars(CONTEXT_CHARS + 10), context.text, 'no more than the context');
});
