import t from 'tap';
import { createLogSerializer } from '../../../lib/logs/serialize.js';
import { recordedConversation } from '../../helpers/conversation.js';

const R = 'run_20261130000000_aaaaaa';
const ev = (type: string, fields: Record<string, unknown> = {}) => ({ schemaVersion: 1, type, runId: R, ...fields });

/** What the serializer writes on stdout, and on stderr, for these events. */
function printed(format: 'text' | 'json' | 'stream-json', events: Record<string, unknown>[]) {
  const stderr: string[] = [];
  const write = createLogSerializer(format, { write: (line: string) => stderr.push(line) });
  return { stdout: events.map(write), stderr: stderr.join('') };
}

t.test('stored prompts and events as exec printed them', async (t) => {
  const prompt = { schemaVersion: 1, type: 'prompt', content: 'two\nlines' };
  const events = [prompt, ev('text', { delta: 'Hi.' }), ev('run_end', { status: 'success', exitCode: 0 }), { ...prompt, content: 'again' }];
  t.same(printed('text', events).stdout, ['> two\n> lines\n\n', 'Hi.', '\n', '\n> again\n\n'], 'a later prompt a paragraph of its own');
  t.same(printed('json', events).stdout.slice(0, 3), ['{"type":"prompt","content":"two\\nlines"}\n', '{"type":"text","delta":"Hi."}\n', '{"type":"done","exit_code":0}\n']);
  t.equal(printed('stream-json', [prompt]).stdout[0], `${JSON.stringify(prompt)}\n`);
});

t.test('text: a conversation as it was, each user message once, how each turn ended, what was decided', async (t) => {
  const { stdout, stderr } = printed('text', recordedConversation().events);
  const text = stdout.join('');
  t.equal(text.match(/^> Write "Remember the milk\." in NOTE\.md\.$/gm)?.length, 1, 'the first turn repeats the stored prompt: said once');
  t.match(text, 'Done: NOTE.md holds your note.\n\n> Now replace the README.\n\nI will replace the README.');
  t.match(text, 'Running the build.\n\n> Then deploy it.\n\n> What happened?\n\nThe build was stopped', 'an interrupted answer\'s open line ended, one blank line between paragraphs');
  t.equal(
    stderr.replace(/^\[(tool|ok|error)\].*\n/gm, ''),
    [
      '[permission] write_file: allowed. The client allowed this write_file call.',
      '[permission] write_file: denied. The client denied permission to run this write_file call. Their reason: keep the README',
      '[permission] bash: allowed. The client allowed this bash call.',
      '[turn 3] interrupted by the client',
      '[turn 4] interrupted by the client before the model said anything',
      '',
    ].join('\n'),
  );
});

t.test('text: a turn at the turn limit says so; a successful one says nothing', async (t) => {
  const { stderr } = printed('text', [ev('turn_start', { turn: 1, content: 'go' }), ev('text', { delta: 'x' }), ev('turn_end', { turn: 1, status: 'incomplete' }), ev('turn_start', { turn: 2, content: 'ok' }), ev('turn_end', { turn: 2, status: 'success' })]);
  t.equal(stderr, '[turn 1] stopped at the turn limit (--max-turns)\n');
});

t.test('json and stream-json: the conversation\'s own lines, nothing added', async (t) => {
  const { events } = recordedConversation();
  t.same(printed('stream-json', events).stdout, events.map((event) => `${JSON.stringify(event)}\n`));
  const json = printed('json', events);
  t.equal(json.stderr, '');
  t.equal(json.stdout.filter((line) => line.includes('"type":"turn_start"')).length, 5);
});
