import t from 'tap';
import fc from '../../helpers/property.js';
import { NAME_ANCHOR, anchoredScanRule } from '../../../lib/redaction/anchored.js';
import { ASSIGNMENT_RULE, ASSIGNMENT_SCAN } from '../../../lib/redaction/assignments.js';
import { HTTP_RULES, URL_PASSWORD_SCAN } from '../../../lib/redaction/http.js';
import { buildPrefilter } from '../../../lib/redaction/prefilter.js';
import { REDACTED, lineLocalRule, prefixedSecretRule } from '../../../lib/redaction/rule.js';

/** Text made of the pieces these rules react to, glued in every way. */
const piece = fc.oneof(
  fc.constantFrom(
    'password', 'token', 'apiKey', 'API_KEY', 'x-api-key', 'db.password', 'tokens', 'keyboard', 'passwordHint', 'cookie',
    'Set-Cookie', 'auth', 'note', 'a', '--', '-', '.', '_', '"', "'", '`', ' ', '  ', '\t', '\n', '\r\n', ':', '=', ':=',
    '=>', ': ', ' = ', ',', ';', '(', ')', '$', '${X}', 'process.env.X', 'await ', 'null', '[REDACTED]', 'https://',
    'user:', '@host', 'sid=', 'Bearer ', 'q8Zt2Lm4P', 'hunter2hunter2', 'correct horse', '\\n',
  ),
  fc.string({ maxLength: 6 }),
);
const text = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(''));

t.test('the anchored assignment rule equals the full scan', async (t) => {
  fc.assert(fc.property(text, (input) => ASSIGNMENT_RULE.apply(input) === ASSIGNMENT_SCAN.apply(input)), { numRuns: 20000 });
  t.pass();
});

t.test('told where its keywords begin (the prefilter\'s pass), the anchored rule equals the full scan', async (t) => {
  const prefilter = buildPrefilter([ASSIGNMENT_RULE]);
  fc.assert(
    fc.property(text, (input) => {
      const { starts } = prefilter.select(input);
      return ASSIGNMENT_RULE.applyAt!(input, starts[0]!) === ASSIGNMENT_SCAN.apply(input);
    }),
    { numRuns: 20000 },
  );
  t.equal(ASSIGNMENT_RULE.applyAt!('password=hunter2hunter2', []), 'password=hunter2hunter2', 'only the starts it is told are tried');
  t.equal(ASSIGNMENT_RULE.applyAt!('password=hunter2hunter2', [0]), `password=${REDACTED}`);
});

t.test('the line-local URL rule equals the full scan', async (t) => {
  const lineLocal = HTTP_RULES.find((rule) => rule.name === URL_PASSWORD_SCAN.name);
  fc.assert(fc.property(text, (input) => lineLocal?.apply(input) === URL_PASSWORD_SCAN.apply(input)), { numRuns: 20000 });
  t.pass();
});

t.test('anchoredScanRule: only runs holding a keyword, each start tried in turn', async (t) => {
  const rule = anchoredScanRule(
    'pin',
    ['pin'],
    /(?<![A-Za-z0-9_.])([A-Za-z_][A-Za-z0-9_.-]{0,20})=([0-9]{1,10})/g,
    (match) => (match[1].endsWith('pin') ? [match.index + match[1].length + 1, match.index + match[0].length] : undefined),
    NAME_ANCHOR,
  );
  t.equal(rule.apply('pin=1234 x-pin=77 pinx=5 other=9'), `pin=${REDACTED} x-pin=${REDACTED} pinx=5 other=9`);
  t.equal(rule.apply('nothing here'), 'nothing here');
  t.equal(rule.apply('PIN=12'), 'PIN=12', 'keywords are found in any case; the regex decides');
  t.throws(() => anchoredScanRule('none', [], /x/g, () => undefined, NAME_ANCHOR));
});

t.test('anchoredScanRule with namePasses: a run where no name can pass is skipped, the others as without it', async (t) => {
  const looked: string[] = [];
  const pattern = /(?<![A-Za-z0-9_.])([A-Za-z_][A-Za-z0-9_.-]{0,20})=([0-9]{1,10})/g;
  const locate = (match: RegExpExecArray) => {
    looked.push(match[1]!);
    return match[1]!.endsWith('pin') ? ([match.index + match[1]!.length + 1, match.index + match[0].length] as const) : undefined;
  };
  const rule = anchoredScanRule('pin', ['pin'], pattern, locate, NAME_ANCHOR, (name) => name.endsWith('pin'));
  t.equal(rule.apply('pin=1234 x-pin=77 pinx=5 my-pin-code=3 a-b-pin=9'), `pin=${REDACTED} x-pin=${REDACTED} pinx=5 my-pin-code=3 a-b-pin=${REDACTED}`);
  t.same(looked, ['pin', 'x-pin', 'a-b-pin'], 'pinx and my-pin-code are not tried: no name in them ends in pin');
  t.equal(rule.applyAt!('spin-pin=12', [1, 5]), `spin-pin=${REDACTED}`, 'a name after a dash');
});

t.test('NAME_ANCHOR', async (t) => {
  const code = (c: string): number => c.charCodeAt(0);
  for (const c of 'aZ09_.-') t.ok(NAME_ANCHOR.inRun(code(c)), c);
  for (const c of ' "\':=$') t.notOk(NAME_ANCHOR.inRun(code(c)), c);
  t.ok(NAME_ANCHOR.startsBefore('"'));
  t.ok(NAME_ANCHOR.startsBefore('\\"'));
  t.notOk(NAME_ANCHOR.startsBefore(' '));
  t.notOk(NAME_ANCHOR.startsBefore('x"'));
  t.ok(NAME_ANCHOR.startsAfter(code('-')));
  t.notOk(NAME_ANCHOR.startsAfter(code('.')));
  const follows = new RegExp(`^key${NAME_ANCHOR.follows}`);
  for (const rest of ['=x', ':x', '" : x', "'=", '    =', '\t:', '_id.x-y:', '"] =', `${' '.repeat(32)}=`]) t.ok(follows.test(`key${rest}`), rest);
  for (const rest of ['', ' x', `${' '.repeat(33)}=`, '"" =', '.x', ')', `${'a'.repeat(128)}=`]) t.notOk(follows.test(`key${rest}`), rest);
});

t.test('lineLocalRule: one line at a time, only lines with a keyword', async (t) => {
  const rule = lineLocalRule(prefixedSecretRule('pw', ['pw='], /(\bpw=)([^\s]{1,20})/g, () => false));
  t.equal(rule.apply('a\npw=1 pw=2\nb pw=3\n\nc'), `a\npw=${REDACTED} pw=${REDACTED}\nb pw=${REDACTED}\n\nc`);
  t.equal(rule.apply('PW=1\nnothing'), 'PW=1\nnothing');
  t.equal(rule.apply(''), '');
  t.throws(() => lineLocalRule(prefixedSecretRule('x', [], /(a)(b)/g, () => false)));
  t.throws(() => lineLocalRule(prefixedSecretRule('x', ['a\nb'], /(a)(b)/g, () => false)));
});
