import t from 'tap';
import { compilePattern } from '../../../lib/tools/grep_pattern.js';

t.test('compiles RE2 syntax, with JavaScript \\u escapes translated and lookbehind on', async (t) => {
  t.ok(compilePattern('caf\\u00e9').test('café'));
  t.ok(compilePattern('na\\u{ef}ve').test('naïve'));
  t.notOk(compilePattern('\\\\u00e9').test('é'), 'an escaped backslash stays one');
  t.ok(compilePattern('(?<=\\.)b').test('a.b'));
  t.notOk(compilePattern('(?<=\\.)b').test('ab'));
});

t.test('a pattern RE2 cannot run is an error naming it and saying grep uses RE2 syntax', async (t) => {
  t.throws(() => compilePattern('(a)\\1'), { message: /^Invalid regular expression "\(a\)\\1": .*grep uses RE2 syntax, which is JavaScript's without backreferences/ });
});
