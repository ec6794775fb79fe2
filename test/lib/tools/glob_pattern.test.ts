import t from 'tap';
import { checkGlobComplexity, globMatcher, MAX_GLOBSTARS, MAX_STARS_PER_SEGMENT } from '../../../lib/tools/glob_pattern.js';

t.test('up to 3 "*" per path segment and 3 "**" segments pass; more are refused with the reason', async (t) => {
  t.equal(MAX_STARS_PER_SEGMENT, 3);
  t.equal(MAX_GLOBSTARS, 3);
  for (const glob of ['*.ts', 'src/**/*.test.ts', '*a*b*c', '**/x/**/y/**/*.md', '???.txt', '{a,b}/*.js', '*a*b*c/*d*e*f']) t.doesNotThrow(() => checkGlobComplexity(glob), glob);
  t.throws(() => checkGlobComplexity('*a*b*c*d'), { message: 'Glob "*a*b*c*d" has 4 "*" in the path segment "*a*b*c*d"; at most 3 per segment are allowed, so that matching stays fast.' });
  t.throws(() => checkGlobComplexity('src/{*a,*b}{*c,*d}'), { message: /has 4 "\*" in the path segment "\{\*a,\*b\}\{\*c,\*d\}"/ }, 'stars inside braces count');
  t.throws(() => checkGlobComplexity('**/a/**/b/**/c/**'), { message: 'Glob "**/a/**/b/**/c/**" has 4 "**" segments; at most 3 are allowed, so that matching stays fast.' });
});

t.test('globMatcher: dot files match, extglobs are off', async (t) => {
  t.ok(globMatcher('*.ts')('.hidden.ts'));
  t.ok(globMatcher('src/**/*.ts')('src/a/b.ts'));
  t.notOk(globMatcher('+(a)b')('ab'), '"+(a)" is not "one or more a"');
  t.throws(() => globMatcher('*a*a*a*a'), { message: /at most 3 per segment/ });
});
