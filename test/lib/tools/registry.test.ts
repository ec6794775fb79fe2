import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { MAX_OUTPUT_BYTES } from '../../../lib/tools/output.js';
import { allTools, createToolbox, readOnlyTools } from '../../../lib/tools/registry.js';
import type { Tool } from '../../../lib/tools/types.js';

const context = (cwd: string) => ({ cwd, signal: new AbortController().signal });
const call = (name: string, args: unknown) => ({ id: 'call_1', name, args });

t.test('advertises the read-only tools to the model', async (t) => {
  const definitions = createToolbox().definitions();
  t.same(definitions.map(({ name }) => name).sort(), ['glob', 'grep', 'list_directory', 'read_file']);
  for (const definition of definitions) {
    t.same(Object.keys(definition).sort(), ['description', 'name', 'parameters']);
    t.equal((definition.parameters as { type: string }).type, 'object');
    t.ok(definition.description.length > 0);
  }
});

t.test('knows each tool\'s side effect', async (t) => {
  const toolbox = createToolbox();
  for (const tool of readOnlyTools) t.equal(toolbox.sideEffectOf(tool.name), 'read');
  t.equal(toolbox.sideEffectOf('rm_rf'), 'unknown');
});

t.test('runs a tool and returns its output', async (t) => {
  const dir = t.testdir({ 'hello.txt': 'hi there\n', src: {} });
  const toolbox = createToolbox();
  t.same(await toolbox.run(call('read_file', { path: 'hello.txt' }), context(dir)), { status: 'ok', output: '     1\thi there', truncated: false });
  t.same(await toolbox.run(call('list_directory', {}), context(dir)), { status: 'ok', output: 'hello.txt\nsrc/', truncated: false });
  t.same(await toolbox.run(call('grep', { pattern: 'there' }), context(dir)), { status: 'ok', output: 'hello.txt:1:hi there', truncated: false });
  t.same(await toolbox.run(call('glob', { pattern: '*.txt' }), context(dir)), { status: 'ok', output: 'hello.txt', truncated: false });
});

t.test('an unknown tool is an error listing the available ones', async (t) => {
  const outcome = await createToolbox().run(call('x', {}), context(t.testdir({})));
  t.same(outcome, { status: 'error', output: 'Unknown tool "x". Available tools: glob, grep, list_directory, read_file.', truncated: false });
});

t.test('arguments that are not an object are an error', async (t) => {
  const toolbox = createToolbox();
  const dir = t.testdir({});
  for (const [args, received] of [[null, 'null'], [['a'], 'array'], ['{"path":"a"}', 'string'], [undefined, 'undefined']] as const) {
    t.same(await toolbox.run(call('read_file', args), context(dir)), {
      status: 'error',
      output: `Invalid arguments for read_file: expected a JSON object, received ${received}.`,
      truncated: false,
    });
  }
});

t.test('arguments failing the schema are an error naming the field and the problem', async (t) => {
  const toolbox = createToolbox();
  const dir = t.testdir({ 'a.txt': 'a\n' });
  const cases: Array<[string, unknown, string]> = [
    ['read_file', {}, 'path: Required field is missing'],
    ['read_file', { path: 7 }, 'path: Expected string, received number'],
    ['read_file', { path: 'a.txt', start_line: 1.5 }, 'start_line: Expected integer, received number'],
    ['read_file', { path: 'a.txt', start_line: '2' }, 'start_line: Expected integer, received string'],
    ['read_file', { path: 'a.txt', max_lines: 0 }, 'max_lines: Must be at least 1, received 0'],
    ['read_file', { path: 'a.txt', lines: 5 }, 'lines: Unrecognized key: "lines"'],
    ['grep', { pattern: '' }, 'pattern: Must not be empty'],
    ['list_directory', { path: null }, 'path: Expected string, received null'],
  ];
  for (const [name, args, problem] of cases) {
    t.same(await toolbox.run(call(name, args), context(dir)), { status: 'error', output: `Invalid arguments for ${name}: ${problem}.`, truncated: false }, problem);
  }
});

t.test('a tool that throws gives an error outcome with the message', async (t) => {
  const dir = t.testdir({ outside: { 'secret.txt': 'secret' }, root: {} });
  const root = join(dir, 'root');
  symlinkSync('../outside/secret.txt', join(root, 'link.txt'));
  const toolbox = createToolbox();
  for (const path of ['../outside/secret.txt', join(dir, 'outside/secret.txt'), 'link.txt']) {
    t.same(await toolbox.run(call('read_file', { path }), context(root)), {
      status: 'error',
      output: `Path "${path}" is outside the working directory.`,
      truncated: false,
    });
  }
  t.same(await toolbox.run(call('read_file', { path: 'missing.txt' }), context(root)), { status: 'error', output: 'Path "missing.txt" does not exist.', truncated: false });
  t.same(await toolbox.run(call('grep', { pattern: '[' }), context(root)), {
    status: 'error',
    output:
      'Invalid regular expression "[": error parsing regexp: missing closing ]: `[`. grep uses RE2 syntax, which is JavaScript\'s without backreferences (\\1) or lookahead ((?=…), (?!…)).',
    truncated: false,
  });
});

t.test('a tool throwing something that is not an Error still gives an error outcome', async (t) => {
  const odd: Tool = {
    name: 'odd',
    description: 'Throws a string.',
    parameters: { type: 'object' },
    sideEffect: 'unknown',
    permission: 'prompt',
    run: () => Promise.reject('plain string'),
  };
  t.same(await createToolbox([odd]).run(call('odd', {}), context(t.testdir({}))), { status: 'error', output: 'plain string', truncated: false });
});

t.test('output over 64 KiB is cut and flagged as truncated', async (t) => {
  const dir = t.testdir({});
  writeFileSync(join(dir, 'big.txt'), `${'€'.repeat(333)}\n`.repeat(1000)); // ~1 MB of multi-byte text
  const outcome = await createToolbox().run(call('read_file', { path: 'big.txt' }), context(dir));
  t.equal(outcome.status, 'ok');
  t.equal(outcome.truncated, true);
  t.ok(Buffer.byteLength(outcome.output) <= MAX_OUTPUT_BYTES);
  t.ok(Buffer.byteLength(outcome.output) > MAX_OUTPUT_BYTES - 4);
  t.notMatch(outcome.output, /\uFFFD/, 'no broken character at the cut');
});

t.test('two tools with the same name are refused', async (t) => {
  t.throws(() => createToolbox([readOnlyTools[0], readOnlyTools[0]]), { message: `Two tools are named "${readOnlyTools[0].name}".` });
});

t.test('a refused tool is not advertised and not run; its call gets the reason', async (t) => {
  const dir = t.testdir({ 'a.txt': 'keep\n' });
  const box = createToolbox(allTools.filter((tool) => tool.permission === 'allow'), { refusals: new Map([['write_file', 'Permission required: not in this run.']]), known: allTools });
  t.notOk(box.definitions().some((definition) => definition.name === 'write_file'));
  t.equal(box.sideEffectOf('write_file'), 'write', 'its side effect is still known for the tool_call event');
  t.same(await box.run({ id: 'c', name: 'write_file', args: { path: 'a.txt', content: 'gone' } }, { cwd: dir, signal: new AbortController().signal }), {
    status: 'error',
    output: 'Permission required: not in this run.',
    truncated: false,
  });
  t.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), 'keep\n');
});
