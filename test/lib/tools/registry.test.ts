import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { MAX_OUTPUT_BYTES } from '../../../lib/tools/output.js';
import { planTools, protectedWriteReason } from '../../../lib/tools/permissions.js';
import { allTools, createToolbox, readOnlyTools, toolboxFor } from '../../../lib/tools/registry.js';
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
  const refusals = [
    ['../outside/secret.txt', 'outside_workspace'],
    [join(dir, 'outside/secret.txt'), 'outside_workspace'],
    ['link.txt', 'symlink_traversal'],
  ] as const;
  for (const [path, code] of refusals) {
    const reason = `Path "${path}" is outside the working directory.`;
    t.same(await toolbox.run(call('read_file', { path }), context(root)), {
      status: 'error',
      output: reason,
      truncated: false,
      refusal: { reason, block: { code, toolName: 'read_file', action: 'deny', path, reason, recoverable: false } },
    }, `${path}: refused by the sandbox (${code})`);
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
  // read_file and grep keep within the cap themselves; a tool that does not is cut by the toolbox.
  const loud: Tool<Record<string, unknown>> = { ...readOnlyTools[0]!, name: 'loud', parameters: { type: 'object' }, run: async () => `${'€'.repeat(333)}\n`.repeat(1000) };
  const outcome = await createToolbox([loud]).run(call('loud', {}), context(t.testdir({})));
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

t.test('a plan\'s toolbox: a call refused for want of a permission carries a Refusal; a filtered tool\'s does not', async (t) => {
  const dir = t.testdir({ 'a.txt': 'keep\n' });
  const box = toolboxFor(planTools(allTools, { disabled: ['grep'], shell: { sandbox: 'read-only', network: false } }));
  t.equal(box.permissionMode, 'auto');
  t.equal(box.permissionOf('write_file'), 'prompt');
  t.equal(box.permissionOf('grep'), 'allow');
  t.equal(box.permissionOf('rm_rf'), 'unknown');
  const write = await box.run(call('write_file', { path: 'a.txt', content: 'gone' }), context(dir));
  t.match(write, { status: 'error', output: /^Permission required: write_file changes files/, refusal: { reason: write.output } });
  t.notOk(write.refusal?.block, 'the plan, not the sandbox: no block');
  t.same(await box.run(call('grep', { pattern: 'x' }), context(dir)), { status: 'error', output: 'Tool grep is disabled by --disabled-tools.', truncated: false });
  t.same(await box.targets(call('write_file', { path: 'a.txt', content: 'gone' }), context(dir)), [], 'a call that will not run needs no checkpoint');
  t.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), 'keep\n');
  t.equal(toolboxFor(planTools(allTools, { auto: 'high' })).permissionMode, 'unsafe');
  t.equal(toolboxFor(planTools(allTools, { skipPermissionsUnsafe: true })).permissionMode, 'unsafe');
});

t.test('targets of a tool that throws before it returns a promise: none, not a crash', async (t) => {
  const throwing = { ...readOnlyTools[0]!, name: 'sync_thrower', targets: () => { throw new Error('unreadable'); } };
  const box = createToolbox([throwing]);
  t.same(await box.targets(call('sync_thrower', { path: 'a.txt' }), context(t.testdir({}))), []);
});

t.test('the files a call would change (for the checkpoint), and those it did change', async (t) => {
  const dir = t.testdir({ 'a.txt': 'one\n', outside: {}, root: { 'b.txt': 'b\n' } });
  const box = toolboxFor(planTools(allTools, { auto: 'high' }));
  const root = join(dir, 'root');
  const patch = '--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-b\n+B\n--- /dev/null\n+++ b/new/c.txt\n@@ -0,0 +1 @@\n+c\n';
  t.same(await box.targets(call('apply_patch', { patch }), context(root)), ['b.txt', 'new/c.txt']);
  t.same(await box.targets(call('edit_file', { path: 'b.txt', old_string: 'b', new_string: 'B' }), context(root)), ['b.txt']);
  t.same(await box.targets(call('write_file', { path: '../outside/x', content: '' }), context(root)), [], 'a path the sandbox refuses: none');
  t.same(await box.targets(call('write_file', { path: 'x' }), context(root)), [], 'arguments that do not check: none');
  t.same(await box.targets(call('bash', { command: 'touch x' }), context(root)), [], 'bash cannot tell');
  t.same(await box.targets(call('read_file', { path: 'b.txt' }), context(root)), []);
  t.same(await box.run(call('apply_patch', { patch }), context(root)), {
    status: 'ok',
    output: 'modified b.txt (+1 -1)\ncreated new/c.txt (+1 -0)',
    truncated: false,
    changedFiles: ['b.txt', 'new/c.txt'],
  });
  const bash = await box.run(call('bash', { command: 'echo hi > d.txt' }), context(root));
  t.notOk('changedFiles' in bash, 'what a shell command changed is unknown');
});

t.test('a write outside: outside_workspace, recoverable with --add-dir; through a symlink: symlink_traversal', async (t) => {
  const dir = t.testdir({ outside: {}, root: {} });
  const root = join(dir, 'root');
  symlinkSync('../outside', join(root, 'out'));
  const box = toolboxFor(planTools(allTools, { auto: 'high' }));
  const outside = await box.run(call('write_file', { path: '../outside/a.txt', content: 'x' }), context(root));
  t.match(outside.refusal, { block: { code: 'outside_workspace', toolName: 'write_file', action: 'deny', path: '../outside/a.txt', recoverable: true } });
  t.equal(outside.output, 'Path "../outside/a.txt" is outside the working directory and the --add-dir directories.', 'the model reads what it always did');
  const traversal = await box.run(call('write_file', { path: 'out/a.txt', content: 'x' }), context(root));
  t.match(traversal.refusal, { block: { code: 'symlink_traversal', path: 'out/a.txt', recoverable: false } });
});

t.test('gate: an auto-allowed write inside runs with its reason; one outside is left to the path sandbox; .git and .zero are not auto-allowed', async (t) => {
  const dir = t.testdir({ root: { '.git': { hooks: {} }, 'a.txt': 'a\n' }, extra: { '.zero': {} }, outside: {} });
  const root = join(dir, 'root');
  const extra = join(dir, 'extra');
  const ctx = { ...context(root), extraRoots: [extra] };
  const shell = { sandbox: 'workspace-write' as const, network: false };
  const box = toolboxFor(planTools(allTools, { shell }));
  const write = (path: string) => call('write_file', { path, content: 'x' });
  t.same(await box.gate(write('a.txt'), ctx), { kind: 'auto', reason: 'Auto-allowed at --auto low: a write inside the working directory and the --add-dir directories.' });
  t.match(await box.gate(write(join(extra, 'b.txt')), ctx), { kind: 'auto' });
  t.same(await box.gate(write('../outside/x'), ctx), { kind: 'run' }, 'the run refuses it with its block');
  t.match(await box.run(write('../outside/x'), ctx), { status: 'error', refusal: { block: { code: 'outside_workspace' } } });
  t.same(await box.gate(write('.git/hooks/pre-commit'), ctx), { kind: 'refuse', reason: protectedWriteReason('write_file', '.git/hooks/pre-commit') });
  t.match(await box.gate(write(join(extra, '.zero/config.json')), ctx), { kind: 'refuse', reason: /would change .*extra\/\.zero\/config\.json/ });
  t.same(await box.gate(call('bash', { command: 'true' }), ctx), { kind: 'auto', reason: 'Auto-allowed at --auto low: sandboxed shell (workspace-write, no network).' });
  t.same(await box.gate(call('read_file', { path: 'a.txt' }), ctx), { kind: 'run' });
  t.same(await box.gate(call('write_file', { path: 'a.txt' }), ctx), { kind: 'run' }, 'arguments that do not check: run() says so');
  const asking = toolboxFor(planTools(allTools, { shell, ask: true }));
  t.same(await asking.gate(write('.git/config'), ctx), { kind: 'ask' }, 'with --permission-prompt stdio the client decides');
  t.match(await asking.gate(write('a.txt'), ctx), { kind: 'auto' });
  t.same(await asking.gate(call('bash', { command: 'true' }), ctx), { kind: 'auto', reason: 'Auto-allowed at --auto low: sandboxed shell (workspace-write, no network).' }, 'nor for a sandboxed command');
  const high = toolboxFor(planTools(allTools, { auto: 'high', shell }));
  t.same(await high.gate(write('.git/config'), ctx), { kind: 'run' }, 'unsafe permissions: no gate');
});

t.test('createToolbox takes an array of tools: anything else is a TypeError that says so, not a schema compiler\'s error', async (t) => {
  const message = 'createToolbox: tools must be an array of tools (each an object with a name, parameters and a run function), not ';
  t.throws(() => createToolbox('x' as never), new TypeError(`${message}a string.`));
  t.throws(() => createToolbox([{ name: 'x' }] as never), new TypeError(`${message}an array of object.`));
});
