import t from 'tap';
import { REDACTED, extendRun, mayMatch, prefixedSecretRule, scanRule, wholeMatchRule } from '../../../lib/redaction/rule.js';

t.test('the marker', async (t) => {
  t.equal(REDACTED, '[REDACTED]');
});

t.test('mayMatch checks lowercase keywords; no keywords means always', async (t) => {
  const rule = wholeMatchRule('x', ['abc'], /abc/g);
  t.ok(mayMatch(rule, 'xxabcxx'));
  t.notOk(mayMatch(rule, 'xxabxcx'));
  t.ok(mayMatch(wholeMatchRule('y', [], /q/g), 'anything'));
});

t.test('wholeMatchRule replaces every whole match', async (t) => {
  const rule = wholeMatchRule('digits', ['0'], /\d{3}/g);
  t.equal(rule.apply('a 123 b 456'), `a ${REDACTED} b ${REDACTED}`);
  t.equal(rule.apply('none here'), 'none here');
});

t.test('prefixedSecretRule keeps the prefix and asks keep()', async (t) => {
  const rule = prefixedSecretRule('pin', ['pin'], /(pin=)(\w{1,10})/g, (secret) => secret === 'keepme');
  t.equal(rule.apply('pin=1234 pin=keepme'), `pin=${REDACTED} pin=keepme`);
});

t.test('wholeMatchRule with a tail swallows the rest of the run', async (t) => {
  const rule = wholeMatchRule('ab', ['ab'], /ab[a-z]{1,3}/g, /[a-z]/);
  t.equal(rule.apply('x abcdefghij y'), `x ${REDACTED} y`);
});

t.test('extendRun scans a character class', async (t) => {
  t.equal(extendRun('abc123 x', 1, /[a-z0-9]/), 6);
  t.equal(extendRun('abc', 3, /[a-z]/), 3);
});

t.test('scanRule: declined matches consume nothing', async (t) => {
  // `k=` followed by anything up to a space; only values starting with a digit are secret
  const rule = scanRule('k', ['k='], /k=(\S{1,50})/g, (match) => {
    const value = match[1];
    if (!/^[0-9]/.test(value)) return undefined;
    const end = match.index + match[0].length;
    return [end - value.length, end];
  });
  t.equal(rule.apply('k=xk=123 k=abc k=9'), `k=xk=${REDACTED} k=abc k=${REDACTED}`);
  t.equal(rule.apply('nothing'), 'nothing');
});

t.test('patterns must be global', async (t) => {
  t.throws(() => wholeMatchRule('bad', [], /x/));
  t.throws(() => prefixedSecretRule('bad', [], /(x)(y)/, () => false));
  t.throws(() => scanRule('bad', [], /x/, () => undefined));
});

t.test('scanRule startsAtKeyword: applyAt tries the regex at the keyword starts it is told, with the scan\'s matches', async (t) => {
  // a declined match (`pin=0`) consumes nothing
  const rule = scanRule('pin', ['pin='], /pin=(\d+)/g, (match) => (match[1] === '0' ? undefined : [match.index + 4, match.index + match[0].length]), true);
  const text = 'pin=0 pin=1234pin=5 pin=77';
  t.equal(rule.applyAt!(text, [0, 6, 14, 20]), `pin=0 pin=${REDACTED}pin=${REDACTED} pin=${REDACTED}`);
  t.equal(rule.applyAt!(text, [0, 6, 14, 20]), rule.apply(text));
  t.equal(rule.applyAt!(text, [20]), `pin=0 pin=1234pin=5 pin=${REDACTED}`, 'only where it is told');
  t.equal(scanRule('plain', ['x'], /x/g, () => undefined).applyAt, undefined, 'without it, no applyAt');
});
