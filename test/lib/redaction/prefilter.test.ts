import t from 'tap';
import { buildPrefilter, keywordSource } from '../../../lib/redaction/prefilter.js';
import { wholeMatchRule } from '../../../lib/redaction/rule.js';

const rule = (name: string, keywords: string[]) => wholeMatchRule(name, keywords, /x^/g);
const a = rule('a', ['sk-']);
const b = rule('b', ['sk-ant-']);
const c = rule('c', ['key', 'token']);
const d = rule('d', ['api-key']);
const e = rule('e', ['ab']);
const f = rule('f', ['bc']);
const names = (rules: readonly { name: string }[]) => rules.map((r) => r.name);

t.test('test: one case-insensitive pass over all keywords', async (t) => {
  const prefilter = buildPrefilter([a, b, c, d]);
  t.notOk(prefilter.test('plain words, nothing else'));
  t.ok(prefilter.test('an SK-thing'));
  t.ok(prefilter.test('TOKEN'));
  t.notOk(prefilter.test(''));
});

t.test('select: the rules whose keywords occur, in rule order', async (t) => {
  const prefilter = buildPrefilter([a, b, c, d, e, f]);
  t.same(names(prefilter.select('nothing here').rules), []);
  t.same(names(prefilter.select('Token').rules), ['c']);
  t.same(names(prefilter.select('x sk-ant-y').rules), ['a', 'b'], 'a longer keyword credits the keywords it contains');
  t.same(names(prefilter.select('X-API-KEY').rules), ['c', 'd'], 'a keyword inside a longer one');
  t.same(names(prefilter.select('abc').rules), ['e', 'f'], 'overlapping keywords are both seen');
  t.same(names(prefilter.select('key key key sk-').rules), ['a', 'c']);
});

t.test('rules without keywords always run', async (t) => {
  const always = rule('always', []);
  const prefilter = buildPrefilter([a, always]);
  t.ok(prefilter.test('anything'));
  t.same(names(prefilter.select('anything').rules), ['always']);
  t.same(names(prefilter.select('sk-').rules), ['a', 'always']);
  t.ok(buildPrefilter([always]).test('x'));
  t.notOk(buildPrefilter([]).test('x'));
});

t.test('keywords with regex syntax are literal', async (t) => {
  const prefilter = buildPrefilter([rule('dot', ['sg.']), rule('q', ['?x'])]);
  t.notOk(prefilter.test('sgx'));
  t.ok(prefilter.test('SG.'));
  t.ok(prefilter.test('a?x'));
});

t.test('keywordSource: a trie of the keywords, longest match first', async (t) => {
  t.equal(keywordSource(['sk-', 'sk-ant-', 'sg.']), 's(?:k\\-(?:ant\\-)?|g\\.)');
  const regex = new RegExp(keywordSource(['key', 'keyword', 'token', 'to']), 'gi');
  t.same('a KEYWORD, key, TOKEN, to'.match(regex), ['KEYWORD', 'key', 'TOKEN', 'to']);
  t.equal(keywordSource([]), '');
});

t.test('select tells where the keywords of each rule with applyAt begin, an array each, in rule order', async (t) => {
  const located = (name: string, keywords: string[]) => ({ ...rule(name, keywords), applyAt: (text: string) => text });
  const g = located('g', ['key']);
  const h = located('h', ['authorization']);
  const prefilter = buildPrefilter([a, g, h]);
  t.same(names(prefilter.located), ['g', 'h']);
  const selection = prefilter.select('sk- key, Authorization: KEY');
  t.same(names(selection.rules), ['a', 'g', 'h']);
  t.same(selection.starts, [[4, 24], [9]]);
  t.same(prefilter.select('nothing').starts, [[], []]);
});
