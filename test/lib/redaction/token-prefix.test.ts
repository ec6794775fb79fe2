import t from 'tap';
import { isAlphanumericCode, tokenPrefixLength } from '../../../lib/redaction/token-prefix.js';

t.test('tokenPrefixLength: how much of a text ends in the beginning of a token prefix at a token start', async (t) => {
  t.equal(tokenPrefixLength('say s'), 1, '`s` may become `sk-…`');
  t.equal(tokenPrefixLength('see gh'), 2, '`gh` may become `ghp_…`');
  t.equal(tokenPrefixLength('see github_pa'), 9, 'the longest beginning: `github_pa` of `github_pat_`');
  t.equal(tokenPrefixLength('see GH'), 2, 'letters fold as a regex `i` flag does');
  t.equal(tokenPrefixLength('sk'), 2, 'the text start is a token start');
  t.equal(tokenPrefixLength('task'), 0, 'inside a word: no token starts there');
  t.equal(tokenPrefixLength('\\u003csk'), 2, 'after an escape (`\\u003c`) a token starts');
  t.equal(tokenPrefixLength('a%0Ask'), 2, 'after a URL-encoded character too');
  t.equal(tokenPrefixLength('see sk-'), 3, '`sk-` begins `sk-ant-`');
  t.equal(tokenPrefixLength('see sk-ant-'), 0, 'a whole prefix that begins no longer one: the token rule itself takes it');
  t.equal(tokenPrefixLength('done.'), 0, 'most text ends in nothing a prefix begins with');
  t.equal(tokenPrefixLength(''), 0, 'empty text');
});

t.test('isAlphanumericCode: ASCII letters and digits only', async (t) => {
  t.same([...'aZ09_-.ü '].map((char) => isAlphanumericCode(char.charCodeAt(0))), [true, true, true, true, false, false, false, false, false]);
});
