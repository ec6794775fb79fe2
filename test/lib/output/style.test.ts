import t from 'tap';
import { palette } from '../../../lib/output/style.js';

t.test('with colour, a style wraps the text in its escape codes; without, the text is as it was', async (t) => {
  t.equal(palette(true).red('error'), '\u001b[31merror\u001b[39m');
  t.equal(palette(true).dim('thinking'), '\u001b[2mthinking\u001b[22m');
  t.equal(palette(false).red('error'), 'error');
  t.equal(palette(false).dim('thinking'), 'thinking');
});

t.test("the choice is the caller's, whatever this process's own stdout is", async (t) => {
  const before = process.env.NO_COLOR;
  process.env.NO_COLOR = '1';
  t.teardown(() => (before === undefined ? delete process.env.NO_COLOR : (process.env.NO_COLOR = before)));
  t.equal(palette(true).green('ok'), '\u001b[32mok\u001b[39m');
});
