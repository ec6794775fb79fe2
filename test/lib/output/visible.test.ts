import fc from '../../helpers/property.js';
import t from 'tap';
import { visible } from '../../../lib/output/visible.js';

t.test('escape sequences a model prints are shown, not obeyed', async (t) => {
  t.equal(visible('copy \x1b]52;c;ZWNobyBoaQ==\x07 done'), 'copy \\e]52;c;ZWNobyBoaQ==\\x07 done', 'OSC 52 (the clipboard) and its BEL');
  t.equal(visible('\x1b[1A\x1b[2K[ok] 3 lines'), '\\e[1A\\e[2K[ok] 3 lines', 'a cursor move that would fake an [ok] line');
  t.equal(visible('\x9b31mred'), '\\x9b31mred', 'the one-character CSI of C1');
  t.equal(visible('a\x7fb\bc\0'), 'a\\x7fb\\bc\\0');
});

t.test('a lone \\r would overwrite its line: escaped; the \\r of a \\r\\n line end stays', async (t) => {
  t.equal(visible('rm -rf /\rls'), 'rm -rf /\\rls');
  t.equal(visible('one\r\ntwo\r'), 'one\r\ntwo\\r');
});

t.test('layout and every printable character stay as they are, the same string when nothing needs escaping', async (t) => {
  const text = 'Line one\n\tindented — “quoted” ✓ 😀 \\e is two characters';
  t.equal(visible(text), text);
  const control = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\r(?!\n)/;
  fc.assert(fc.property(fc.string({ unit: 'binary' }), (input) => !control.test(visible(input)) && (control.test(input) || visible(input) === input)));
});
