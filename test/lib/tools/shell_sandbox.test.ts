import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { createBash } from '../../../lib/tools/bash.js';
import { childEnvironment } from '../../../lib/tools/child_env.js';
import { createToolbox } from '../../../lib/tools/registry.js';
import { bwrapArgs, missingProtected, shellInvocation, type ShellPolicy } from '../../../lib/tools/shell_sandbox.js';
import { needsBubblewrap, policyFor, processesWith, uniqueSleep, WITHOUT_TAP } from '../../helpers/sandbox.js';
import { survivors } from '../../helpers/processes.js';
import { tempDir } from '../../helpers/zero.js';

// The sandbox, tried from inside: each escape is a command that works unconfined (the `off` run shows it), and
// must not work in workspace-write or read-only. Run in-process through the bash tool.

const context = (cwd: string, signal = new AbortController().signal) => ({ cwd, signal });
const run = async (command: string, cwd: string, policy: ShellPolicy) => (await createBash(policy).run({ command }, context(cwd))).output;
const skip = needsBubblewrap;

/** A workspace and, beside it, a directory outside it. */
function layout(t: Test) {
  const dir = t.testdir({ work: {}, outside: {}, home: {} });
  return { work: join(dir, 'work'), outside: join(dir, 'outside'), home: join(dir, 'home') };
}

t.test('the argv: bubblewrap with the root read-only, the roots writable, their .git read-only, no network', async (t) => {
  const dir = t.testdir({ work: { '.git': {} }, extra: {} });
  const policy = policyFor(join(dir, 'work'), { bwrap: '/usr/bin/bwrap', hidden: [join(dir, 'work', '.git')] }, [join(dir, 'extra')]);
  const [work, extra] = policy.roots;
  const args = bwrapArgs(work, policy);
  t.same(args.slice(0, 9), ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp']);
  const text = args.join(' ');
  t.match(text, `--bind ${work} ${work} --ro-bind ${work}/.git ${work}/.git`);
  t.match(text, `--bind ${extra} ${extra} --perms 555 --tmpfs ${extra}/.git --remount-ro ${extra}/.git`, 'a missing one is an empty read-only folder');
  t.same(missingProtected(policy), [`${work}/.zero`, `${work}/.agents`, `${extra}/.git`, `${extra}/.zero`, `${extra}/.agents`]);
  t.same(missingProtected({ ...policy, sandbox: 'read-only' }), [], 'read-only: the roots are read-only already');
  t.match(text, '--unshare-user --disable-userns --unshare-pid --unshare-ipc --unshare-uts --die-with-parent --new-session --cap-drop ALL --unshare-net');
  t.same(args.slice(-2), ['--chdir', work]);
  t.notMatch(bwrapArgs(work, { ...policy, network: true }).join(' '), '--unshare-net');
  t.match(bwrapArgs(work, { ...policy, sandbox: 'read-only' }).join(' '), `--ro-bind ${work} ${work}`);
  const invocation = shellInvocation('echo hi', work, policy);
  t.equal(invocation.file, '/usr/bin/bwrap');
  t.same(invocation.args.slice(-6), ['--info-fd', '3', '--', 'bash', '-c', 'exec 2>&1; echo hi']);
  t.equal(invocation.infoFd, 3, 'the sandbox init\'s pid is read there');
  t.equal(invocation.env.ZERO_SANDBOX, 'workspace-write');
  t.same(shellInvocation('echo hi', work, { ...policy, sandbox: 'off' }), { file: 'bash', args: ['-c', 'exec 2>&1; echo hi'], env: policy.env });
  t.throws(() => shellInvocation('echo hi', work, { ...policy, bwrap: undefined }), { message: /^The workspace-write sandbox cannot run here/ }, 'never unconfined instead');
});

t.test('a working directory reached through a link in /tmp still works (the sandbox has a /tmp of its own)', { skip }, async (t) => {
  const work = t.testdir({});
  const link = join(tempDir(t), 'link');
  symlinkSync(work, link);
  t.equal(await run('pwd -P; echo ok > f && cat f', link, policyFor(work)), `${realpathSync(work)}\nok\nexit code 0`);
});

t.test('TMPDIR inside the sandbox names a writable place', async (t) => {
  const policy = policyFor(t.testdir({}), { bwrap: '/usr/bin/bwrap', env: { TMPDIR: '/var/tmp/elsewhere', PATH: '/usr/bin' } });
  t.equal(shellInvocation('true', policy.roots[0], policy).env.TMPDIR, '/tmp');
  const inside = { ...policy, env: { TMPDIR: join(policy.roots[0], 'tmp') } };
  t.equal(shellInvocation('true', policy.roots[0], inside).env.TMPDIR, join(policy.roots[0], 'tmp'), 'one in the workspace is kept');
});

t.test('escapes that work unconfined fail in the sandbox: a write outside, through a symlink, into $HOME, through ..', { skip }, async (t) => {
  const { work, outside, home } = layout(t);
  symlinkSync(outside, join(work, 'link'));
  const command = (tag: string) => `echo 1 > ${outside}/${tag}-direct; echo 2 > link/${tag}-link; echo 3 > ~/${tag}-home; echo 4 > ../outside/${tag}-dots; (cd / && echo 5 > ${outside}/${tag}-cd)`;
  const withHome = (policy: ShellPolicy) => ({ ...policy, env: { ...policy.env, HOME: home } });
  await run(command('off'), work, withHome(policyFor(work, { sandbox: 'off' })));
  t.same(readdirSync(outside).sort(), ['off-cd', 'off-direct', 'off-dots', 'off-link'], 'unconfined, each write lands');
  t.same(readdirSync(home), ['off-home']);
  for (const sandbox of ['workspace-write', 'read-only'] as const) {
    const output = await run(command(sandbox), work, withHome(policyFor(work, { sandbox })));
    // a checkout under /tmp: the sandbox's /tmp of its own hides `outside`, so a write there finds no directory
    t.equal(output.match(/Read-only file system|No such file or directory/g)?.length, 5, `${sandbox}: five refusals`);
    t.notOk(readdirSync(outside).some((name) => name.startsWith(sandbox)), `${sandbox}: nothing outside`);
    t.same(readdirSync(home), ['off-home'], `${sandbox}: nothing in $HOME`);
  }
});

t.test('mount, unshare and /proc/1/root are refused in the sandbox', { skip }, async (t) => {
  const { work, outside } = layout(t);
  mkdirSync(join(work, 'mnt'));
  const command = `mount -t tmpfs none mnt && echo MOUNTED; unshare -r true && echo UNSHARED; unshare -m true && echo UNSHARED_MOUNTS; echo x > /proc/1/root${outside}/via-proc && echo VIA_PROC; ls /proc | grep -c '^[0-9]'`;
  const output = await run(command, work, policyFor(work));
  t.notMatch(output, /MOUNTED|UNSHARED|VIA_PROC/);
  t.same(readdirSync(outside), []);
  t.ok(Number(output.match(/^(\d+)$/m)?.[1]) < 10, 'its /proc shows only its own few processes');
});

t.test('no request reaches a loopback server from the sandbox; with --sandbox-network, or unconfined, it does', { skip }, async (t) => {
  const received: string[] = [];
  const server = createServer((request, response) => {
    received.push(request.url ?? '');
    response.end('hello');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const port = (server.address() as { port: number }).port;
  const work = t.testdir({});
  const fetchFrom = (path: string) => `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET /${path} HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3`;
  const blocked = await run(fetchFrom('sandboxed'), work, policyFor(work));
  t.match(blocked, /Connection refused|Network is unreachable|No such file/);
  t.same(received, [], 'the server received nothing');
  t.match(await run(fetchFrom('network'), work, policyFor(work, { network: true })), /hello/);
  t.match(await run(fetchFrom('off'), work, policyFor(work, { sandbox: 'off' })), /hello/);
  t.same(received, ['/network', '/off']);
});

t.test('planted secrets: never in env; in the sandbox not in /proc/*/environ nor ps e, though a process of ours holds them', { skip }, async (t) => {
  const work = t.testdir({});
  const secret = 'sk-proj-PLANTEDsecret0123456789abcdef';
  const parent = { PATH: process.env.PATH, HOME: process.env.HOME, ZERO_TEST_API_KEY: secret, DB_PASSWORD: 'PLANTEDhunter2hunter2', INNOCENT_NAME: secret, DATABASE_URL: 'postgres://app:PLANTEDdbpass99@db/app' };
  // zero's own process, as a command sees it: a process of the same user with the secrets in its environment
  const holder = spawn('sleep', ['60'], { env: parent, stdio: 'ignore' });
  t.teardown(() => holder.kill('SIGKILL'));
  const env = childEnvironment(parent, undefined, [secret]);
  t.same(Object.keys(env).sort(), ['HOME', 'PATH'], 'only ordinary variables are passed');
  // each count: lines holding a planted value (the bracket keeps grep from finding its own command line)
  const scan = "env | grep -c 'PLANTE[D]'; cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n' | grep -c 'PLANTE[D]'; ps e -A ww | grep -c 'PLANTE[D]'";
  for (const sandbox of ['workspace-write', 'read-only'] as const) {
    t.equal(await run(scan, work, policyFor(work, { sandbox, env })), '0\n0\n0\nexit code 1', `${sandbox}: env, /proc/*/environ and ps e`);
  }
  const [inEnv, inProc, inPs] = (await run(scan, work, policyFor(work, { sandbox: 'off', env }))).split('\n').map(Number);
  t.equal(inEnv, 0, 'off: env is clean too');
  t.ok(inProc > 0 && inPs > 0, 'off: another process of the same user shows them (docs/exec.md says so)');
});

t.test('setsid, nohup and double-forked children are gone when the command returns', { skip }, async (t) => {
  const work = t.testdir({});
  const [a, b, c] = [uniqueSleep(), uniqueSleep(), uniqueSleep()];
  const command = `setsid sleep ${a} & nohup sleep ${b} >/dev/null 2>&1 & (setsid sh -c 'sleep ${c} &' &); echo started`;
  t.equal(await run(command, work, policyFor(work)), 'started\nexit code 0');
  t.same(await survivors([...processesWith(a), ...processesWith(b), ...processesWith(c)]), []);
  const escaped = uniqueSleep();
  await run(`setsid sleep ${escaped} & echo started`, work, policyFor(work, { sandbox: 'off' }));
  const outliving = processesWith(escaped);
  t.teardown(() => outliving.forEach((pid) => process.kill(pid, 'SIGKILL')));
  t.equal(outliving.length, 1, 'unconfined, a setsid child outlives the call (the documented limit of off)');
});

t.test('timeout and cancel end everything the sandboxed command started', { skip }, async (t) => {
  const work = t.testdir({});
  const marker = uniqueSleep();
  const toolbox = createToolbox([createBash(policyFor(work))]);
  const timedOut = await toolbox.run({ id: 'c1', name: 'bash', args: { command: `echo started; setsid sleep ${marker} & sleep ${marker}`, timeout_ms: 1500 } }, context(work));
  t.match(timedOut, { status: 'error', output: /^The command timed out after 1500 ms and was killed, with its whole process group\.\nOutput so far:\nstarted\n$/ });
  t.same(await survivors(processesWith(marker)), []);
  const controller = new AbortController();
  const second = uniqueSleep();
  const running = toolbox.run({ id: 'c2', name: 'bash', args: { command: `touch started; setsid sleep ${second} & sleep ${second}` } }, context(work, controller.signal));
  while (!existsSync(join(work, 'started')) || processesWith(second).length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
  controller.abort();
  t.match(await running, { status: 'error', output: /^The command was cancelled/ });
  t.same(await survivors(processesWith(second)), []);
});

/** The pids of `pid`'s children, from /proc (each thread's own list). */
function childrenOf(pid: number): number[] {
  const lists = readdirSync(`/proc/${pid}/task`).map((task) => {
    try {
      return readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
    } catch {
      return '';
    }
  });
  return lists.join(' ').split(' ').filter(Boolean).map(Number);
}

const noChildrenLists = existsSync(`/proc/${process.pid}/task/${process.pid}/children`) ? false : 'needs /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN)';

t.test('a cancel while bubblewrap still sets the sandbox up ends what the sandbox then runs', { skip: skip || noChildrenLists }, async (t) => {
  // Cancelled the moment bwrap has cloned the sandbox's init: that init ignores SIGTERM, leaves bwrap's group and
  // session, and outlived bwrap when it had not yet asked to die with it. Without the pid bwrap tells on its info
  // fd, about half of these tries left the command running.
  const work = t.testdir({});
  for (let attempt = 0; attempt < 6; attempt++) {
    const marker = uniqueSleep();
    const controller = new AbortController();
    const before = new Set(childrenOf(process.pid));
    const running = createBash(policyFor(work)).run({ command: `sleep ${marker} & sleep ${marker}` }, context(work, controller.signal));
    const deadline = Date.now() + 10_000;
    const cloned = () => childrenOf(process.pid).some((pid) => !before.has(pid) && childrenOf(pid).length > 0);
    while (!cloned() && Date.now() < deadline);
    controller.abort();
    await t.rejects(running, { message: /^The command was cancelled and was killed/ });
    t.same(await survivors(processesWith(marker)), [], `try ${attempt + 1}: nothing left running`);
  }
});

t.test('ordinary work still works: pipes, mktemp, node, git status, /etc, the workspace, /tmp', { skip }, async (t) => {
  const work = t.testdir({ 'a.txt': 'b\na\nc\n' });
  execFileSync('git', ['init', '-q'], { cwd: work });
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'init'], { cwd: work });
  const policy = policyFor(work);
  t.equal(await run('sort a.txt | head -1 | tr a-z A-Z', work, policy), 'A\nexit code 0');
  t.match(await run('f=$(mktemp) && echo tmp > "$f" && cat "$f" && echo "${TMPDIR:-/tmp}"', work, policy), /^tmp\n/);
  t.equal(await run(`${WITHOUT_TAP}node -e "console.log(6 * 7)"`, work, policy), '42\nexit code 0');
  t.equal(await run('git status --short', work, policy), '?? a.txt\nexit code 0');
  t.match(await run('head -1 /etc/passwd', work, policy), /^root:/);
  t.equal(await run('echo written > out.txt && mkdir -p deep/er && echo x > deep/er/y && cat out.txt', work, policy), 'written\nexit code 0');
  t.equal(readFileSync(join(work, 'out.txt'), 'utf8'), 'written\n');
  t.equal(await run('echo 1 > /tmp/x && cat /tmp/x', work, policy), '1\nexit code 0');
  t.match(await run('echo x > .git/hooks/pre-commit', work, policy), /Read-only file system/, 'but not the repository\'s hooks');
  t.match(await run('echo x > out.txt', work, { ...policy, sandbox: 'read-only' }), /Read-only file system/, 'read-only: not even the workspace');
});

t.test('a command cannot make a missing .git, .zero or .agents (a hook, an fsmonitor, a config that runs later, unconfined); the folders it saw are gone after', { skip }, async (t) => {
  const dir = t.testdir({ work: {}, extra: {} });
  const [work, extra] = [join(dir, 'work'), join(dir, 'extra')];
  const policy = policyFor(work, {}, [extra]);
  const marker = join(dir, 'ran-outside');
  const command = [
    `git init -q . && git config core.fsmonitor 'touch ${marker}; false'`,
    'mkdir -p .zero && echo {} > .zero/config.json',
    'mkdir .agents',
    `mkdir ${extra}/.git/hooks`,
    'rmdir .git && ln -s elsewhere .git',
  ].join('; ');
  const output = await run(command, work, policy);
  t.match(output, /copy .*\/work\/\.git\/description': Read-only file system/, 'git init');
  t.match(output, /\.zero\/config\.json: Read-only file system/);
  t.match(output, /cannot create directory ‘\.agents’: File exists/, 'the name is taken for the call');
  t.match(output, /extra\/\.git\/hooks’: Read-only file system/, 'in an --add-dir too');
  t.match(output, /failed to remove '\.git': Device or resource busy/, 'nor can it be replaced');
  // the folders bwrap made to mount over stay, empty, as with Zero: removed, they would take the mount from another zero's sandbox here
  for (const root of [work, extra]) {
    t.same(readdirSync(root).sort(), ['.agents', '.git', '.zero'], 'nothing made but the empty folders mounted over');
    for (const name of readdirSync(root)) t.same(readdirSync(join(root, name)), [], `${name} is empty`);
  }
  t.match(await run('ls .git; touch .git/x', work, policy), /Read-only file system/, 'a later call finds it and binds it read-only');
  execFileSync('git', ['status'], { cwd: work, stdio: 'ignore' });
  t.notOk(existsSync(marker), 'nothing runs outside the sandbox afterwards');
  t.equal(await run('rmdir .git && git init -q . && echo made', work, policyFor(work, { sandbox: 'off' })), 'made\nexit code 0', 'unconfined (with a permission), the same command works');
});

t.test('a build that writes node_modules inside the workspace', { skip }, async (t) => {
  const work = t.testdir({ 'package.json': '{"name":"app","version":"1.0.0","private":true}', pkg: { 'package.json': '{"name":"pkg","version":"1.0.0"}', 'index.js': 'module.exports = 42;\n' } });
  const output = await run(`${WITHOUT_TAP}npm install --offline --no-audit --no-fund ./pkg 2>&1 | tail -1 && node -e "console.log(require('pkg'))"`, work, policyFor(work));
  t.match(output, /42\nexit code 0$/);
  t.ok(existsSync(join(work, 'node_modules', 'pkg')));
});

t.test('hidden files cannot be read; sockets under /run are not there', { skip }, async (t) => {
  const dir = t.testdir({ work: {}, config: { 'config.json': '{"apiKey":"sk-hidden"}' } });
  const work = join(dir, 'work');
  const hidden = join(realpathSync(dir), 'config', 'config.json');
  const output = await run(`cat ${hidden}; ls -A /run | wc -l`, work, policyFor(work, { hidden: [hidden] }));
  t.notMatch(output, 'sk-hidden');
  t.match(output, /^0\nexit code 0$/m);
  t.match(await run(`cat ${hidden}`, work, policyFor(work, { sandbox: 'off' })), 'sk-hidden', 'unconfined, it is there');
});

t.test('the tool description tells the model where its commands run', async (t) => {
  t.match(createBash().description, /Not sandboxed/);
  t.match(createBash(policyFor(t.testdir({}))).description, /Sandboxed \(workspace-write\): it can read the file system but can write only the working directory, the added directories and \/tmp; there is no network/);
  t.match(createBash(policyFor(t.testdir({}), { sandbox: 'read-only', network: true })).description, /can write only \/tmp; it may use the network/);
});

t.test('exit codes and merged output are as unconfined', { skip }, async (t) => {
  const work = t.testdir({});
  t.equal(await run('echo one; echo two >&2; exit 3', work, policyFor(work)), 'one\ntwo\nexit code 3');
  t.equal(await run('kill -TERM $$', work, policyFor(work)), 'exit code 143');
});
