import t from 'tap';
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { ZERO, cleanEnv } from '../../helpers/zero.js';
import { repoPath } from '../../helpers/repo.js';

// What a command loads: the command line's shape is light, and each command's code is imported only when it runs.

const HOOK = pathToFileURL(repoPath('test/helpers/load-hook.mjs')).href;
const REGISTER = `data:text/javascript,import{register}from'node:module';register(${JSON.stringify(HOOK)})`;

function loadedBy(args: string[], stdin = ''): Promise<{ modules: string[]; stdout: string; code: number | null }> {
  const child = spawn(process.execPath, ['--import', REGISTER, ZERO, ...args], { env: cleanEnv() });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.end(stdin);
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ modules: [...stderr.matchAll(/^\[loaded\] (.*)$/gm)].map((match) => match[1]!), stdout, code })),
  );
}

const ours = (modules: string[]) => modules.filter((url) => !url.includes('/node_modules/')).map((url) => url.replace(/^.*\/dist\//, ''));

t.test('zero --version loads neither commander nor any command', async (t) => {
  const { modules, stdout, code } = await loadedBy(['--version']);
  t.equal(code, 0);
  t.match(stdout, /^\d+\.\d+\.\d+\n$/);
  t.notOk(modules.some((url) => url.includes('/node_modules/')), 'no package at all');
  t.same(ours(modules).filter((url) => !url.endsWith('bin/zero')).sort(), ['lib/cli/exit.js', 'lib/cli/io.js', 'lib/cli/main.js', 'lib/cli/signals.js', 'lib/errors.js', 'lib/package.js']);
});

for (const args of [['--help'], ['exec', '--help'], ['validate', '--help']]) {
  t.test(`zero ${args.join(' ')} loads the command line's shape, no command`, async (t) => {
    const { modules, code } = await loadedBy(args);
    t.equal(code, 0);
    const loaded = ours(modules);
    t.ok(loaded.includes('lib/cli/program.js'));
    for (const heavy of ['lib/pipeline.js', 'lib/cli/exec.js', 'lib/cli/validate.js', 'lib/redaction/', 'transforms/', 'lib/providers/']) {
      t.notOk(loaded.some((url) => url.includes(heavy)), `nothing of ${heavy}`);
    }
    t.notOk(modules.some((url) => url.includes('/node_modules/ajv/')), 'no ajv');
  });
}

t.test('a log command loads its own code and no provider SDK', async (t) => {
  const start = { schemaVersion: 1, type: 'run_start', runId: 'run_20261201000000_aaaaaa', cwd: '/', provider: 'p', model: 'm' };
  const end = { schemaVersion: 1, type: 'run_end', runId: start.runId, status: 'success', exitCode: 0 };
  const { modules, code } = await loadedBy(['validate'], `${JSON.stringify(start)}\n${JSON.stringify(end)}\n`);
  t.equal(code, 0);
  const loaded = ours(modules);
  t.ok(loaded.includes('lib/cli/validate.js'));
  t.notOk(loaded.includes('lib/cli/exec.js'), 'not the exec command');
  t.notOk(modules.some((url) => /node_modules\/(openai|@anthropic-ai)\//.test(url)), 'no provider SDK');
});

t.test('zero redact starts without the agent, and without ajv (a third of its start-up, for a check it never makes)', async (t) => {
  const line = JSON.stringify({ schemaVersion: 1, type: 'text', runId: 'run_20261201000000_aaaaaa', delta: 'hello' });
  const { modules, stdout, code } = await loadedBy(['redact'], `${line}\n`);
  t.equal(code, 0);
  t.equal(stdout, `${line}\n`);
  const loaded = ours(modules);
  t.ok(loaded.includes('lib/cli/redact.js'));
  for (const heavy of ['lib/pipeline.js', 'transforms/agent.js', 'lib/agent/', 'lib/tools/registry.js']) t.notOk(loaded.some((url) => url.includes(heavy)), `nothing of ${heavy}`);
  t.notOk(modules.some((url) => url.includes('/node_modules/ajv/')), 'no ajv');
});
