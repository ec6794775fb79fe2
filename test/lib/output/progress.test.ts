import t from 'tap';
import { cut, describeCall, describeResult } from '../../../lib/output/progress.js';

const ok = (output: string, truncated = false) => ({ status: 'ok' as const, output, truncated });

t.test('a call is named with what it works on', async (t) => {
  t.equal(describeCall({ name: 'read_file', args: { path: 'README.md', max_lines: 5 } }), 'read_file README.md');
  t.equal(describeCall({ name: 'bash', args: { command: 'npm test\n  -- --grep x', timeout_ms: 10 } }), 'bash npm test -- --grep x');
  t.equal(describeCall({ name: 'grep', args: { pattern: 'TODO', path: 'lib' } }), 'grep TODO in lib');
  t.equal(describeCall({ name: 'apply_patch', args: { patch: '--- a/x.ts\n+++ b/x.ts\n@@\n--- a/y.ts\n+++ b/y.ts\n' } }), 'apply_patch x.ts y.ts');
  t.equal(describeCall({ name: 'list_directory', args: {} }), 'list_directory');
  t.equal(describeCall({ name: 'mcp_tool', args: { count: 3, topic: 'weather' } }), 'mcp_tool weather', 'an unknown tool: its first text argument');
});

t.test('a result says how it went, never the raw output', async (t) => {
  t.same(describeResult(ok('1 a\n2\n3 c\n'), 'read_file'), { ok: true, summary: '3 lines' });
  t.same(describeResult(ok('only line'), 'read_file'), { ok: true, summary: '1 line' }, 'data is counted even when it is one line');
  t.same(describeResult(ok('x\ny', true), 'grep'), { ok: true, summary: '2 lines, cut' });
  const fiveOfMore = '     1\ta\n     2\tb\n     3\t(c.)\n     4\td\n     5\te\n(Showing lines 1-5; the file goes on. Read more with start_line 6.)';
  t.same(describeResult(ok(fiveOfMore), 'read_file'), { ok: true, summary: '5 lines' }, "read_file's note on where the file goes on is no line of it");
  t.same(describeResult(ok('(File "a.txt" is empty.)'), 'read_file'), { ok: true, summary: 'File "a.txt" is empty.' }, 'a note alone is what happened');
  t.same(describeResult(ok('(Directory "src" is empty.)'), 'list_directory'), { ok: true, summary: 'Directory "src" is empty.' });
  t.same(describeResult(ok('No matches for /x/ in "."'), 'grep'), { ok: true, summary: 'No matches for /x/ in "."' }, 'nothing found is a message');
  t.same(describeResult(ok('Wrote 3 lines to a.ts'), 'write_file'), { ok: true, summary: 'Wrote 3 lines to a.ts' }, 'a one-line message is shown');
  t.same(describeResult({ status: 'error', output: 'File not found: x\nmore', truncated: false }, 'read_file'), { ok: false, summary: 'File not found: x' });
  t.same(describeResult({ ...ok('x'), display: { summary: 'Edited  a.ts', kind: 'diff' } }), { ok: true, summary: 'Edited a.ts' }, "a v2 result's own summary");
});

t.test('bash: the exit code, and on failure the last thing the command said', async (t) => {
  t.same(describeResult(ok('a\nb\nexit code 0'), 'bash'), { ok: true, summary: '2 lines' });
  t.same(describeResult(ok('exit code 0'), 'bash'), { ok: true, summary: 'no output' });
  t.same(describeResult(ok('PASS a\nFAIL b: expected 1\n\nexit code 1'), 'bash'), { ok: false, summary: 'exit 1: FAIL b: expected 1' });
  t.same(describeResult(ok('exit code 137'), 'bash'), { ok: false, summary: 'exit 137' });
});

t.test('cut: at most max characters, an ellipsis when cut, never half a character', async (t) => {
  t.equal(cut('short', 10), 'short');
  t.equal(cut('abcdefghij', 5), 'abcd…');
  t.equal(cut('😀😀😀', 2), '😀…');
});
