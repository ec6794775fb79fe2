import t from 'tap';
import { createPlainTextRenderer, renderPlainText } from '../../../lib/render/text.js';
import { transcriptOf } from '../../../lib/render/transcript.js';
import { recordedConversation } from '../../helpers/conversation.js';

const R = 'run_20260101000000_abcdef';
const ev = (type: string, fields: Record<string, unknown> = {}) => ({ schemaVersion: 1, type, runId: R, ...fields });

t.test('a run: the prompt quoted, turns, tool calls with arguments and results indented, the outcome', async (t) => {
  const text = renderPlainText(
    transcriptOf([
      { schemaVersion: 1, type: 'prompt', content: 'Summarise notes.txt' },
      ev('run_start', { cwd: '/w', provider: 'scripted', model: 'm1' }),
      ev('text', { delta: 'Let me look.' }),
      ev('tool_call', { id: 'c1', name: 'read_file', args: { path: 'notes.txt' }, sideEffect: 'read' }),
      ev('tool_result', { id: 'c1', status: 'ok', output: 'line one\nline two\n', truncated: false }),
      ev('warning', { message: 'careful \x1b[2J' }),
      ev('text', { delta: 'Friday.' }),
      ev('final', { text: 'Friday.' }),
      ev('run_end', { status: 'success', exitCode: 0 }),
    ]),
    { title: 'Zero transcript: run.jsonl' },
  );
  t.equal(
    text,
    `Zero transcript: run.jsonl
==========================

Run 1: ${R}
--------------------------------

Provider: scripted
Model: m1
Working directory: /w

Prompt:
> Summarise notes.txt

Turn 1:
  Let me look.

  Tool call read_file (read): ok
    Arguments:
      {
        "path": "notes.txt"
      }
    Result:
      line one
      line two

  Warning: careful \\e[2J

Final answer:
  Friday.

Outcome: success, exit code 0
  Tokens: not reported
  Turns: 2 model turns, 1 tool call
`,
  );
});

t.test('a conversation: each user turn quoted, its work, its answer or how it was interrupted, permissions decided', async (t) => {
  const text = renderPlainText(transcriptOf(recordedConversation().events));
  t.match(text, 'User turn 1:\n> Write "Remember the milk." in NOTE.md.\n\nModel turn 1:\n  Reasoning:\n  | The user wants a note; write_file makes it.\n  I will write a note.');
  t.match(text, '    Permission asked, denied: The client denied permission to run this write_file call. Their reason: keep the README\n');
  t.match(text, 'Answer (model turn 2):\n  Done: NOTE.md holds your note.');
  t.match(text, '[Turn 3 interrupted by the client.]\n\nUser turn 4:\n> Then deploy it.\n\n[Turn 4 interrupted by the client before the model said anything.]\n\nUser turn 5:');
  t.match(text, 'Turns: 5 user turns (2 interrupted), 6 model turns, 3 tool calls');
  t.notMatch(text, /Answer with a permission_response|Final answer|Prompt:/);
});

t.test('written as the pieces come; no runs, skipped lines in their files', async (t) => {
  const out: string[] = [];
  const renderer = createPlainTextRenderer({ title: 'T' });
  renderer.write({ kind: 'log_end', runs: 0, skipped: [{ lineNo: 2, file: 'b.jsonl', reason: 'not JSON' }], more: 1 }, (text) => out.push(text));
  renderer.end!((text) => out.push(text));
  t.equal(out.join(''), 'T\n=\n\nNo runs in this log.\n\nSkipped lines\n-------------\n  b.jsonl: line 2: not JSON\n  … and 1 more\n');
});
