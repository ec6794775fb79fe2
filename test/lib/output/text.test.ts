import fc from '../../helpers/property.js';
import t from 'tap';
import { createTextRenderer, type Rendered } from '../../../lib/output/text.js';
import type { Event, OutputEvent } from '../../../lib/protocol/types.js';

const runId = 'run_20261130053326_ab12cd';
const stamp = (event: Event): OutputEvent => ({ schemaVersion: 1, runId, ...event }) as OutputEvent;

const text = (delta: string): Event => ({ type: 'text', delta });
const toolCall = (name = 'read_file'): Event => ({ type: 'tool_call', id: 'call_1', name, args: {} });
const toolResult = (output = 'ok'): Event => ({ type: 'tool_result', id: 'call_1', status: 'ok', output, truncated: false });
const final = (answer = ''): Event => ({ type: 'final', text: answer });
const runEnd = (exitCode = 0): Event => ({ type: 'run_end', status: exitCode === 0 ? 'success' : 'error', exitCode });

/** Renders a whole run and returns what each stream received. */
function render(events: Event[]): { stdout: string; stderr: string; each: Rendered[] } {
  const renderer = createTextRenderer();
  const each = events.map((event) => renderer(stamp(event)));
  return { stdout: each.map((r) => r.stdout ?? '').join(''), stderr: each.map((r) => r.stderr ?? '').join(''), each };
}

function renderWith(options: Parameters<typeof createTextRenderer>[0], events: Event[]) {
  const renderer = createTextRenderer(options);
  const each = events.map((event) => renderer(stamp(event)));
  return { stdout: each.map((r) => r.stdout ?? '').join(''), stderr: each.map((r) => r.stderr ?? '').join('') };
}

t.test('assistant text goes to stdout as it comes, ending with one newline', async (t) => {
  const { stdout, stderr, each } = render([
    { type: 'run_start', cwd: '/repo', provider: 'scripted', model: 'demo' },
    text('Hello, '),
    text('world.'),
    final('Hello, world.'),
    runEnd(),
  ]);
  t.equal(stdout, 'Hello, world.\n');
  t.equal(stderr, '');
  t.same(each, [{ busy: 'waiting for the model' }, { stdout: 'Hello, ' }, { stdout: 'world.' }, { stdout: '\n' }, {}]);
});

t.test('an emoji cut between two deltas comes out whole: each write is bytes of its own, and a lone half would be U+FFFD', async (t) => {
  const { each } = render([text('Smile \ud83d'), text('\ude00 end'), text('cut \ud83d'), final(), runEnd()]);
  const bytes = Buffer.concat(each.map((rendered) => Buffer.from(rendered.stdout ?? '', 'utf8')));
  t.equal(bytes.toString('utf8'), 'Smile 😀 endcut \ufffd\n', 'the pair joined; a half never followed by its other written as it is, at the end');
  t.equal(each[0]!.stdout, 'Smile ', 'the first half waits for the second');
});

t.test('no newline is added when the text already ends with one', async (t) => {
  t.equal(render([text('Line one\n'), final(), runEnd()]).stdout, 'Line one\n');
});

t.test('no text, no output: final and run_end alone write nothing', async (t) => {
  const { stdout, each } = render([final('Answer that was never streamed'), runEnd()]);
  t.equal(stdout, '');
  t.same(each, [{}, {}]);
});

t.test('without a final (a failed run), run_end ends the text with a newline', async (t) => {
  const { stdout, stderr } = render([text('Partial answ'), { type: 'error', code: 'provider_error', message: 'Provider failed: 401.', recoverable: false }, runEnd(3)]);
  t.equal(stdout, 'Partial answ\n');
  t.equal(stderr, '[zero] Provider failed: 401.\n');
});

t.test('a later model turn starts on a new line', async (t) => {
  const { stdout, stderr } = render([text('Let me look.'), toolCall('read_file'), toolResult('# zero'), text('Found it: '), text('zero.'), final('Found it: zero.'), runEnd()]);
  t.equal(stdout, 'Let me look.\nFound it: zero.\n');
  t.equal(stderr, '[tool] read_file\n[ok] 1 line\n');
});

t.test('a progress line never starts mid-sentence: the open line of the answer ends before it, on stdout', async (t) => {
  const { each } = render([text('Let me '), text('read the README.'), toolCall('read_file'), toolResult('1 # zero\n2 text'), text('Done.'), final(), runEnd()]);
  t.same(each.slice(2, 5), [
    { stdout: '\n', stderr: '[tool] read_file\n', busy: 'running read_file' },
    { stderr: '[ok] 2 lines\n', busy: 'waiting for the model' },
    { stdout: 'Done.' },
  ]);
  const warned = render([text('Half'), { type: 'warning', message: 'Careful.' }, text(' on.'), final(), runEnd()]);
  t.equal(warned.stdout, 'Half\n on.\n', 'a warning mid-answer ends its line too');
});

t.test('a tool line says what the call works on; a result line how it went, never the raw output', async (t) => {
  const { stderr } = render([
    { type: 'tool_call', id: 'b', name: 'bash', args: { command: 'npm   test' } },
    { type: 'tool_result', id: 'b', status: 'ok', output: 'FAIL test/a.test.ts\nTests: 1 failed\nexit code 1', truncated: false },
    { type: 'tool_call', id: 'r', name: 'read_file', args: { path: 'README.md', max_lines: 5 } },
    { type: 'tool_result', id: 'r', status: 'ok', output: '1 # zero\n2\n3 more\n', truncated: false },
  ]);
  t.equal(stderr, '[tool] bash npm test\n[error] exit 1: Tests: 1 failed\n[tool] read_file README.md\n[ok] 3 lines\n');
});

t.test('on a terminal a tool line is cut to its width; piped, to 200 characters', async (t) => {
  const call = { type: 'tool_call', id: 'b', name: 'bash', args: { command: 'echo ' + 'x'.repeat(300) } } as Event;
  const narrow = renderWith({ columns: 40 }, [call]).stderr;
  t.equal(narrow.length, 40, '39 columns and the newline');
  t.match(narrow, /^\[tool\] bash echo x+…\n$/);
  t.equal(renderWith({}, [call]).stderr.length, 201);
});

t.test('colour: tags coloured, the session hint dimmed; none without it', async (t) => {
  const events: Event[] = [{ type: 'run_start', sessionId: 'zero_20261201000000_abc123', cwd: '/', provider: 'p', model: 'm' }, toolCall('grep'), toolResult('one'), runEnd()];
  const coloured = renderWith({ color: true, sessionHint: true }, events).stderr;
  t.match(coloured, /\x1b\[36m\[tool\]\x1b\[39m grep\n\x1b\[32m\[ok\]\x1b\[39m 1 line\n\x1b\[2m\[zero\] session zero_20261201000000_abc123; continue it with: zero exec --resume zero_20261201000000_abc123 "<next prompt>"\x1b\[22m\n$/);
  t.notMatch(renderWith({ sessionHint: true }, events).stderr, /\x1b/);
});

t.test('the session hint comes only when asked and the run has a session', async (t) => {
  const start = (sessionId?: string): Event => ({ type: 'run_start', ...(sessionId ? { sessionId } : {}), cwd: '/', provider: 'p', model: 'm' });
  t.equal(renderWith({ sessionHint: true }, [start('zero_20261201000000_abc123'), text('Hi'), runEnd()]).stderr, '[zero] session zero_20261201000000_abc123; continue it with: zero exec --resume zero_20261201000000_abc123 "<next prompt>"\n');
  t.equal(renderWith({ sessionHint: true }, [start(), text('Hi'), runEnd()]).stderr, '', '--no-session');
  t.equal(renderWith({}, [start('zero_20261201000000_abc123'), runEnd()]).stderr, '', 'not asked (zero replay, zero sessions show)');
});

t.test('no turn break when the earlier text already ended the line', async (t) => {
  t.equal(render([text('Let me look.\n'), toolCall(), toolResult(), text('Done.'), final(), runEnd()]).stdout, 'Let me look.\nDone.\n');
});

t.test('no leading newline when the first text comes after a tool call', async (t) => {
  t.equal(render([toolCall(), toolResult(), text('Done.'), final(), runEnd()]).stdout, 'Done.\n');
});

t.test('several tool calls between two turns still give one line break', async (t) => {
  t.equal(render([text('A'), toolCall('glob'), toolCall('grep'), toolResult(), toolResult(), text('B'), final(), runEnd()]).stdout, 'A\nB\n');
});

t.test('progress goes to stderr as short lines', async (t) => {
  const { stdout, stderr } = render([
    { type: 'warning', message: 'Ignoring unknown setting "colour".' },
    toolCall('list_directory'),
    toolResult('a.ts\nb.ts'),
    { type: 'usage', promptTokens: 1, completionTokens: 2 },
    { type: 'error', code: 'max_turns', message: 'Reached the turn limit (1).', recoverable: true },
    runEnd(4),
  ]);
  t.equal(stdout, '');
  t.equal(stderr, '[zero] WARNING: Ignoring unknown setting "colour".\n[tool] list_directory\n[ok] 2 lines\n[zero] Reached the turn limit (1).\n');
});

t.test('run_start and usage print nothing', async (t) => {
  t.same(render([{ type: 'run_start', cwd: '/', provider: 'p', model: 'm' }, { type: 'usage', totalTokens: 3 }]).each, [{ busy: 'waiting for the model' }, {}]);
});

t.test('each renderer keeps its own state', async (t) => {
  const a = createTextRenderer();
  const b = createTextRenderer();
  a(stamp(text('one')));
  t.same(a(stamp(toolCall())), { stdout: '\n', stderr: '[tool] read_file\n', busy: 'running read_file' });
  t.same(b(stamp(text('two'))), { stdout: 'two' }, 'b saw no tool call');
  t.same(b(stamp(final())), { stdout: '\n' });
  t.same(a(stamp(text('three'))), { stdout: 'three' });
});

t.test('property: stdout is the text deltas, in order, plus a newline if the text did not end with one', async (t) => {
  fc.assert(
    fc.property(fc.array(fc.string({ minLength: 1, unit: fc.constantFrom('a', ' ', '\n', 'é') }), { minLength: 1, maxLength: 10 }), fc.boolean(), (deltas, withFinal) => {
      const events = [...deltas.map(text), ...(withFinal ? [final(deltas.join(''))] : []), runEnd()];
      const { stdout, stderr } = render(events);
      const joined = deltas.join('');
      return stderr === '' && stdout === (joined.endsWith('\n') ? joined : `${joined}\n`);
    }),
  );
  t.pass('property held');
});

const reasoning = (delta: string): Event => ({ type: 'reasoning', delta });


t.test('reasoning is not shown unless asked (stderr is not a terminal): stdout and stderr as without it', async (t) => {
  const events = [reasoning('Let me think.'), text('Answer.'), final('Answer.'), runEnd()];
  const { stdout, stderr } = render([text('Answer.'), final('Answer.'), runEnd()]);
  t.same(renderWith({}, events), { stdout, stderr });
});

t.test('on a terminal, reasoning goes to stderr, dimmed, as lines of its own; never to stdout', async (t) => {
  const events = [reasoning('Let me '), reasoning('think.'), text('Answer.'), toolCall(), toolResult('12 lines'), reasoning('Next step.'), text('Done.'), final('Done.'), runEnd()];
  const { stdout, stderr } = renderWith({ reasoning: 'dim' }, events);
  t.equal(stdout, 'Answer.\nDone.\n', 'the answer is exactly as without reasoning');
  t.equal(stderr, '\x1b[2mLet me \x1b[22m\x1b[2mthink.\x1b[22m\n[tool] read_file\n[ok] 1 line\n\x1b[2mNext step.\x1b[22m\n');
});

t.test('reasoning after an answer\'s open line: the answer\'s line ends first, and it gets no second newline', async (t) => {
  const { stdout, stderr } = renderWith({ reasoning: 'plain' }, [text('Half'), reasoning('hm'), final('Half'), runEnd()]);
  t.equal(stdout, 'Half\n');
  t.equal(stderr, 'hm\n', 'plain: no escape codes (NO_COLOR)');
});

t.test('control characters from the model are shown escaped, on stdout (terminal or not) and in every progress line', async (t) => {
  const osc52 = '\x1b]52;c;cm0gLXJmIH4=\x07';
  const fakeOk = '\x1b[1A\x1b[2K[ok] 0 lines';
  const { stdout, stderr } = renderWith({ reasoning: 'plain', sessionHint: true }, [
    { type: 'run_start', sessionId: 'zero_20261201000000_abc123\x1b[2J', cwd: '/', provider: 'p', model: 'm' },
    reasoning(`think${osc52}\n`),
    text(`Copied ${osc52}. `),
    text('Overwrite\rthis line.\r\n'),
    { type: 'tool_call', id: 'b', name: 'bash', args: { command: `echo ${fakeOk}` } },
    { type: 'tool_result', id: 'b', status: 'error', output: `${fakeOk}\nexit code 1`, truncated: false },
    { type: 'warning', message: `Careful ${osc52}` },
    { type: 'error', code: 'provider_error', message: `Server said \x1b[31mno`, recoverable: false },
    runEnd(3),
  ]);
  t.equal(stdout, 'Copied \\e]52;c;cm0gLXJmIH4=\\x07. Overwrite\\rthis line.\r\n', 'a lone \\r escaped, a \\r\\n line end kept');
  t.equal(
    stderr,
    [
      'think\\e]52;c;cm0gLXJmIH4=\\x07',
      '[tool] bash echo \\e[1A\\e[2K[ok] 0 lines',
      '[error] exit 1: \\e[1A\\e[2K[ok] 0 lines',
      '[zero] WARNING: Careful \\e]52;c;cm0gLXJmIH4=\\x07',
      '[zero] Server said \\e[31mno',
      '[zero] session zero_20261201000000_abc123\\e[2J; continue it with: zero exec --resume zero_20261201000000_abc123\\e[2J "<next prompt>"',
      '',
    ].join('\n'),
  );
  t.notOk(/\x1b|\x07/.test(stdout + stderr), 'no ESC or BEL reaches either stream');
});
