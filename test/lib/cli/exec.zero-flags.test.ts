import t, { type Test } from 'tap';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { zeroHere } from '../../helpers/cli.js';
import { cleanEnv, jsonLines, nth, tempDir, writeScript } from '../../helpers/zero.js';

// zero exec with the flags Zero's users pass (-p, --mode, --allow-escalation, --self-correct) and its turn limit
// (ZERO_MAX_TURNS, the config files, 50 by default), run in-process against the scripted provider.

async function exec(t: Test, turns: unknown[], args: string[], options: { env?: NodeJS.ProcessEnv; files?: Record<string, string> } = {}) {
  const dir = tempDir(t, options.files);
  const script = writeScript(tempDir(t), turns);
  const result = await zeroHere(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', dir, '--no-session', ...args], { env: cleanEnv(options.env) });
  return { ...result, events: jsonLines(result.stdout), dir };
}

t.test('-p and the prompt words make one prompt (-p first), then --file after a blank line, as in Zero', async (t) => {
  const joined = await exec(t, [{ expect: { contains: ['Fix the bug in lib/\n\nDetails from the file.'] }, text: 'ok' }], ['-p', 'Fix', '--prompt', 'the bug', '-f', 'task.md', 'in', 'lib/'], { files: { 'task.md': 'Details from the file.\n' } });
  t.equal(joined.code, 0, joined.stdout);
  const streamJson = await exec(t, [{ text: 'unused' }], ['-i', 'stream-json', '-p', 'hi']);
  t.equal(streamJson.code, 2);
  t.match(nth(streamJson.events, 'error'), { message: 'Stream-json input does not accept positional prompt text. Pipe JSONL or use --file.' });
});

t.test('--mode, --allow-escalation and --self-correct run, each with a warning after run_start saying what it does not do', async (t) => {
  const { code, events } = await exec(t, [{ text: 'Done.' }], ['--mode', 'fast', '--allow-escalation', '--self-correct', 'hi']);
  t.equal(code, 0);
  t.same(events.slice(1, 4).map((event) => [event.type, String(event.message).split(':')[0]]), [['warning', '--mode fast'], ['warning', '--allow-escalation changes nothing here'], ['warning', '--self-correct changes nothing here']]);
  const unknown = await exec(t, [{ text: 'unused' }], ['--mode', 'turbo', 'hi']);
  t.same([unknown.code, nth(unknown.events, 'error')?.message], [2, 'Unknown mode "turbo". Valid modes: smart, deep, fast, large, precise.']);
  const listing = await zeroHere(['exec', '--list-tools', '--allow-escalation', '-o', 'stream-json']);
  t.match(listing.stdout, /"type":"warning",[^\n]*--allow-escalation changes nothing here/, '--list-tools says so too (there is no escalate_model to list)');
});

/** A script that asks for a tool every turn, and answers when asked for its last answer. */
const tooling = (turns: number) => [...Array.from({ length: turns }, () => ({ toolCalls: [{ name: 'list_directory', args: {} }] })), { expect: { contains: ['tool-turn limit'] }, text: 'Out of turns.' }];
const toolCalls = (events: Record<string, unknown>[]) => events.filter((event) => event.type === 'tool_call').length;

t.test("the turn limit: Zero's 50 by default; then the config files, ZERO_MAX_TURNS, --mode and --max-turns, each winning over the one before", async (t) => {
  const byDefault = await exec(t, tooling(50), ['go']);
  t.equal(byDefault.code, 4);
  t.equal(toolCalls(byDefault.events), 50);
  t.match(byDefault.events.slice(-3), [{ type: 'final', text: 'Out of turns.' }, { type: 'error', code: 'max_turns', message: 'Reached the turn limit (50) before the model finished. Raise it with --max-turns.' }, { type: 'run_end', exitCode: 4 }]);
  const config = { '.zero/config.json': JSON.stringify({ maxTurns: 4 }) };
  const cases: [string, string[], NodeJS.ProcessEnv, number][] = [
    ['maxTurns in .zero/config.json', [], {}, 4],
    ['ZERO_MAX_TURNS over the config files', [], { ZERO_MAX_TURNS: '3' }, 3],
    ['--mode fast over ZERO_MAX_TURNS (a preset, as a flag is)', ['--mode', 'fast'], { ZERO_MAX_TURNS: '3' }, 15],
    ['--max-turns over all of them', ['--mode', 'fast', '--max-turns', '2'], { ZERO_MAX_TURNS: '3' }, 2],
  ];
  for (const [what, args, env, limit] of cases) {
    const dir = tempDir(t);
    mkdirSync(join(dir, '.zero'));
    writeFileSync(join(dir, '.zero', 'config.json'), config['.zero/config.json']);
    const script = writeScript(tempDir(t), tooling(limit));
    const result = await zeroHere(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', dir, '--no-session', ...args, 'go'], { env: cleanEnv(env) });
    const events = jsonLines(result.stdout);
    t.same([result.code, toolCalls(events), nth(events, 'final')?.text], [4, limit, 'Out of turns.'], what);
  }
});

t.test('a bad ZERO_MAX_TURNS is a usage error before the run starts', async (t) => {
  const { code, events } = await exec(t, [{ text: 'unused' }], ['go'], { env: { ZERO_MAX_TURNS: 'lots' } });
  t.equal(code, 2);
  t.same(events.map((event) => event.type), ['error', 'run_end']);
  t.match(events[0], { code: 'usage_error', message: 'Invalid value for ZERO_MAX_TURNS: "lots". Expected a positive integer.' });
});

t.test('zero exec --help shows the new flags', async (t) => {
  const { stdout, code } = await zeroHere(['exec', '--help']);
  t.equal(code, 0);
  for (const flag of ['-p, --prompt <text>', '--mode <name>', '--allow-escalation', '--self-correct', '-w, --worktree [name]', '--worktree-dir <dir>', '--init-session-id <id>', '--session-title <text>', '--tag <tag>']) t.match(stdout, flag, flag);
  t.match(stdout.replace(/\s+/g, ' '), 'default $ZERO_MAX_TURNS, else maxTurns from the config files, else 50');
});
