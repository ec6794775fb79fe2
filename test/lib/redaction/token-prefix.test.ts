import t from 'tap';
import { isAlphanumericCode, tokenPrefixLength } from '../../../lib/redaction/token-prefix.js';

t.test('tokenPrefixLength: how much of a text ends in the beginning of a token prefix at a token start', async (t) => {
  const cases: [text: string, held: number, why: string][] = [
    ['say s', 1, '`s` may become `sk-…`'],
    ['see gh', 2, '`gh` may become `ghp_…`'],
    ['see github_pa', 9, 'the longest beginning: `github_pa` of `github_pat_`'],
    ['see GH', 2, 'letters fold as a regex `i` flag does'],
    ['sk', 2, 'the text start is a token start'],
    ['task', 0, 'inside a word: no token starts there'],
    ['\\u003csk', 2, 'after an escape (`\\u003c`) a token starts'],
    ['a%0Ask', 2, 'after a URL-encoded character too'],
    ['see sk-', 3, '`sk-` begins `sk-ant-`'],
    ['see sk-ant-', 0, 'a whole prefix that begins no longer one: the token rule itself takes it'],
    ['done.', 0, 'most text ends in nothing a prefix begins with'],
    ['', 0, 'empty text'],
  ];
  for (const [text, held, why] of cases) t.equal(tokenPrefixLength(text), held, why);
});

t.test('isAlphanumericCode: ASCII letters and digits only', async (t) => {
  t.same([...'aZ09_-.ü '].map((char) => isAlphanumericCode(char.charCodeAt(0))), [true, true, true, true, false, false, false, false, false]);
});
