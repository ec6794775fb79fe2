import t from 'tap';
import { rulesViews } from '../../../lib/redaction/rules-view.js';
import { knownForms } from '../../../lib/redaction/known.js';

const credential = 'Zq8nR2vT6yU1iO5pL9kJ3hG7fD4sA0mN';
const credentials = { secrets: [credential], forms: knownForms([credential]) };

t.test('a text with nothing to decode and no credential has no other view', async (t) => {
  t.same(rulesViews('plain words, sk-proj-abc \\n'), []);
  t.same(rulesViews('plain words', credentials), []);
});

t.test('escapes decoded: each position maps back to where its character came from', async (t) => {
  const text = 'x s_\\u0070ass :p';
  const [view] = rulesViews(text);
  t.equal(view!.text, 'x s_pass :p');
  t.equal(view!.rawAt(view!.text.indexOf('pass')), text.indexOf('\\u0070'), 'the decoded character: the escape');
  t.equal(view!.rawAt(view!.text.indexOf('ass')), text.indexOf('ass'), 'after it: shifted back');
  t.equal(view!.rawAt(2), 2, 'before it: the same');
  t.equal(view!.rawAt(view!.text.length), text.length, 'the end');
});

t.test('an escape still arriving at the end reads as a character that continues a token', async (t) => {
  const views = rulesViews('SG.M8oUstVdF\\u006');
  t.same(
    views.map((view) => view.text),
    ['SG.M8oUstVdFA'],
  );
  t.equal(views[0]!.rawAt(12), 12, 'it maps back to its start');
});

t.test('credentials in use become the marker, as redactText replaces them before its rules run', async (t) => {
  const text = `say ${credential}sk-proj-Q7xL`;
  const [view] = rulesViews(text, credentials);
  t.equal(view!.text, 'say [REDACTED]sk-proj-Q7xL');
  t.equal(view!.rawAt(view!.text.indexOf('[')), 4, 'a position in the marker: where the credential starts');
  t.equal(view!.rawAt(view!.text.indexOf('sk-')), text.indexOf('sk-'));
  t.equal(rulesViews(`a ${credential.slice(0, 12)}b`, credentials)[0]!.text, 'a [REDACTED]b', 'a piece of one too');
  t.equal(rulesViews(`a ${credential.slice(0, 12)}`, credentials)[0]!.text, 'a [REDACTED]', 'at the end: a token may still follow');
  t.same(rulesViews(`a ${credential} b`, credentials), [], 'none followed by a space: the marker changes nothing after it');
  const escaped = `\\u0061 ${credential}s`;
  t.same(
    rulesViews(escaped, credentials).map((view) => view.text),
    ['a ' + credential + 's', '\\u0061 [REDACTED]s', 'a [REDACTED]s'],
    'decoded, and each with the credential replaced',
  );
  t.equal(rulesViews(escaped, credentials)[2]!.rawAt('a [REDACTED]'.length), escaped.length - 1, 'through both');
});
