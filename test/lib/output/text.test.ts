import fc from 'fast-check';
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
  t.same(each, [{}, { stdout: 'Hello, ' }, { stdout: 'world.' }, { stdout: '\n' }, {}]);
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
  t.equal(stderr, '[tool] read_file\n[result] # zero\n');
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
  t.equal(stderr, '[zero] WARNING: Ignoring unknown setting "colour".\n[tool] list_directory\n[result] a.ts b.ts\n[zero] Reached the turn limit (1).\n');
});

t.test('run_start and usage render nothing', async (t) => {
  t.same(render([{ type: 'run_start', cwd: '/', provider: 'p', model: 'm' }, { type: 'usage', totalTokens: 3 }]).each, [{}, {}]);
});

t.test('the result preview is one line: whitespace runs collapse to one space, ends trimmed', async (t) => {
  t.same(render([toolResult('  line one\n\n\tline  two\r\nthree  \n')]).each, [{ stderr: '[result] line one line two three\n' }]);
});

t.test('the result preview is at most 200 characters', async (t) => {
  const long = 'x'.repeat(150) + '\n' + 'y'.repeat(150);
  const [rendered] = render([toolResult(long)]).each;
  t.equal(rendered?.stderr, `[result] ${'x'.repeat(150)} ${'y'.repeat(49)}\n`);
  t.equal(render([toolResult('z'.repeat(200))]).each[0]?.stderr, `[result] ${'z'.repeat(200)}\n`);
});

t.test('an error result is previewed the same way', async (t) => {
  const { stderr } = render([{ type: 'tool_result', id: 'c', status: 'error', output: 'No such file: x', truncated: false }]);
  t.equal(stderr, '[result] No such file: x\n');
});

t.test('the 200-character cut never splits a character', async (t) => {
  const [rendered] = render([toolResult('a'.repeat(199) + '😀 and more')]).each;
  const preview = rendered!.stderr!.slice('[result] '.length, -1);
  t.notOk(/[\uD800-\uDBFF]$/.test(preview), 'the preview does not end in half a surrogate pair');
  t.equal(Buffer.from(preview, 'utf8').toString('utf8'), preview, 'the preview survives UTF-8 encoding');
});

t.test('each renderer keeps its own state', async (t) => {
  const a = createTextRenderer();
  const b = createTextRenderer();
  a(stamp(text('one')));
  a(stamp(toolCall()));
  t.same(b(stamp(text('two'))), { stdout: 'two' }, 'b saw no tool call');
  t.same(b(stamp(final())), { stdout: '\n' });
  t.same(a(stamp(text('three'))), { stdout: '\nthree' });
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

t.test('an empty tool output is a bare [result] line, with no trailing space', async (t) => {
  t.same(render([toolResult('')]).each, [{ stderr: '[result]\n' }]);
});

const reasoning = (delta: string): Event => ({ type: 'reasoning', delta });

function renderWith(options: Parameters<typeof createTextRenderer>[0], events: Event[]) {
  const renderer = createTextRenderer(options);
  const each = events.map((event) => renderer(stamp(event)));
  return { stdout: each.map((r) => r.stdout ?? '').join(''), stderr: each.map((r) => r.stderr ?? '').join('') };
}

t.test('reasoning is not shown unless asked (stderr is not a terminal): stdout and stderr as without it', async (t) => {
  const events = [reasoning('Let me think.'), text('Answer.'), final('Answer.'), runEnd()];
  const { stdout, stderr } = render([text('Answer.'), final('Answer.'), runEnd()]);
  t.same(renderWith({}, events), { stdout, stderr });
});

t.test('on a terminal, reasoning goes to stderr, dimmed, as lines of its own; never to stdout', async (t) => {
  const events = [reasoning('Let me '), reasoning('think.'), text('Answer.'), toolCall(), toolResult('12 lines'), reasoning('Next step.'), text('Done.'), final('Done.'), runEnd()];
  const { stdout, stderr } = renderWith({ reasoning: 'dim' }, events);
  t.equal(stdout, 'Answer.\nDone.\n', 'the answer is exactly as without reasoning');
  t.equal(stderr, '\x1b[2mLet me \x1b[22m\x1b[2mthink.\x1b[22m\n[tool] read_file\n[result] 12 lines\n\x1b[2mNext step.\x1b[22m\n');
});

t.test('reasoning after an answer\'s open line: the answer\'s line ends first, and it gets no second newline', async (t) => {
  const { stdout, stderr } = renderWith({ reasoning: 'plain' }, [text('Half'), reasoning('hm'), final('Half'), runEnd()]);
  t.equal(stdout, 'Half\n');
  t.equal(stderr, 'hm\n', 'plain: no escape codes (NO_COLOR)');
});
