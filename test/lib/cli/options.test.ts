import t from 'tap';
import { join } from 'node:path';
import { execSettings, outputFormatFromArgv, schemaVersionFromArgv } from '../../../lib/cli/options.js';

t.test('defaults', async (t) => {
  const settings = execSettings(['hello', 'world'], {});
  t.match(settings, { inputFormat: 'text', outputFormat: 'text', words: ['hello', 'world'], cwd: process.cwd() });
  t.equal(settings.maxTurns, undefined);
});

t.test('formats are case-insensitive', async (t) => {
  t.match(execSettings([], { inputFormat: 'Stream-JSON', outputFormat: 'JSON' }), { inputFormat: 'stream-json', outputFormat: 'json' });
});

t.test('--file resolves after --cwd', async (t) => {
  const dir = t.testdir({ sub: {} });
  const settings = execSettings([], { cwd: dir, file: 'sub/prompt.md' });
  t.equal(settings.file, join(dir, 'sub/prompt.md'));
});

t.test('bad values are usage errors', async (t) => {
  t.throws(() => execSettings([], { outputFormat: 'yaml' }), { code: 'usage_error', message: 'Invalid value for --output-format: "yaml". Expected one of: text, json, stream-json.' });
  t.throws(() => execSettings([], { maxTurns: '1.5' }), { message: /--max-turns: "1\.5"/ });
  t.throws(() => execSettings([], { maxLineBytes: '0' }), { message: /--max-line-bytes: "0"/ });
  t.throws(() => execSettings([], { cwd: '/definitely/not/here' }), { message: 'Working directory not found: /definitely/not/here' });
  const dir = t.testdir({ 'file.txt': '' });
  t.throws(() => execSettings([], { cwd: join(dir, 'file.txt') }), { message: /is not a directory/ });
  t.match(execSettings([], { maxTurns: '3', maxLineBytes: '1024' }), { maxTurns: 3, maxLineBytes: 1024 });
});

t.test('provider limits: retries may be 0; timeouts are seconds, fractions allowed', async (t) => {
  t.match(execSettings([], { maxRetries: '0', timeout: '30', idleTimeout: '0.5' }), { maxRetries: 0, timeoutMs: 30_000, idleTimeoutMs: 500 });
  t.throws(() => execSettings([], { maxRetries: 'two' }), { message: /--max-retries: "two"/ });
  t.throws(() => execSettings([], { timeout: '-3' }), { message: /--timeout: "-3"/ });
  t.throws(() => execSettings([], { idleTimeout: '1e3' }), { message: /--idle-timeout: "1e3"/ });
});

// 2^31 ms and more overflow Node's 32-bit timers, which then fire after 1 ms: every call would time out at once.
t.test('--heartbeat below 1 s is honoured to the millisecond; less than a millisecond (which rounded to 0: no beats at all) is a usage error', async (t) => {
  const conversation = { inputFormat: 'stream-json', outputFormat: 'stream-json', multiTurn: true };
  t.equal(execSettings([], { ...conversation, heartbeat: '0.5' }).heartbeatMs, 500);
  t.equal(execSettings([], { ...conversation, heartbeat: '0.001' }).heartbeatMs, 1);
  t.throws(() => execSettings([], { ...conversation, heartbeat: '0.0001' }), { name: 'UsageError', message: 'Invalid value for --heartbeat: "0.0001". Expected at least 0.001 seconds (one millisecond).' });
  t.throws(() => execSettings([], { timeout: '0.0004' }), { message: /^Invalid value for --timeout: "0\.0004"\. Expected at least 0\.001 seconds/ });
});

t.test('timeouts longer than a timer can wait are usage errors', async (t) => {
  t.match(execSettings([], { timeout: '2147483', idleTimeout: '2147483' }), { timeoutMs: 2_147_483_000, idleTimeoutMs: 2_147_483_000 });
  t.throws(() => execSettings([], { timeout: '2147484' }), { message: 'Invalid value for --timeout: "2147484". Expected a positive number of seconds, at most 2147483.' });
  t.throws(() => execSettings([], { idleTimeout: '2147483.9' }), { message: /^Invalid value for --idle-timeout: "2147483\.9"\. .*at most 2147483\.$/ });
  t.throws(() => execSettings([], { timeout: '99999999999' }), { name: 'UsageError' });
});

t.test('outputFormatFromArgv finds the format even in a broken command line', async (t) => {
  t.equal(outputFormatFromArgv(['exec', '--bogus', '-o', 'stream-json']), 'stream-json');
  t.equal(outputFormatFromArgv(['exec', '--output-format=JSON']), 'json');
  t.equal(outputFormatFromArgv(['exec', '-ostream-json']), 'stream-json');
  t.equal(outputFormatFromArgv(['exec', '-o', 'xml']), 'text');
  t.equal(outputFormatFromArgv(['exec']), 'text');
});

t.test('--no-session and ZERO_NO_SESSION=1 turn recording off; with --resume or --fork they are usage errors', async (t) => {
  t.equal(execSettings(['hi'], {}).noSession, false);
  t.equal(execSettings(['hi'], { session: false }).noSession, true);
  t.equal(execSettings(['hi'], {}, { ZERO_NO_SESSION: '1' }).noSession, true);
  t.equal(execSettings(['hi'], {}, { ZERO_NO_SESSION: '0' }).noSession, false);
  for (const value of ['true', 'TRUE', 'yes', 'on']) t.equal(execSettings(['hi'], {}, { ZERO_NO_SESSION: value }).noSession, true, `ZERO_NO_SESSION=${value} records nothing`);
  for (const value of ['', 'false', 'no', 'off']) t.equal(execSettings(['hi'], {}, { ZERO_NO_SESSION: value }).noSession, false, `ZERO_NO_SESSION=${value} records`);
  t.throws(() => execSettings(['hi'], { session: false, fork: 'zero_20260101000000_abcdef' }), { name: 'UsageError', message: '--no-session cannot be used with --resume or --fork: they continue a recorded session.' });
  t.throws(() => execSettings(['hi'], { resume: true }, { ZERO_NO_SESSION: '1' }), { name: 'UsageError', message: /^ZERO_NO_SESSION=1 cannot be used with --resume or --fork/ });
});

t.test('--schema-version, else ZERO_SCHEMA_VERSION; neither: undefined (the input decides, else 1)', async (t) => {
  t.equal(execSettings([], {}).schemaVersion, undefined);
  t.equal(execSettings([], { schemaVersion: '2' }).schemaVersion, 2);
  t.equal(execSettings([], {}, { ZERO_SCHEMA_VERSION: '2' }).schemaVersion, 2);
  t.equal(execSettings([], { schemaVersion: '1' }, { ZERO_SCHEMA_VERSION: '2' }).schemaVersion, 1, 'the flag wins');
  t.equal(execSettings([], {}, { ZERO_SCHEMA_VERSION: ' ' }).schemaVersion, undefined, 'an empty variable is unset');
  t.throws(() => execSettings([], { schemaVersion: '3' }), { code: 'usage_error', message: 'Invalid value for --schema-version: "3". Expected one of: 1, 2.' });
  t.throws(() => execSettings([], { schemaVersion: '2.0' }), { message: /--schema-version: "2\.0"/ });
  t.throws(() => execSettings([], {}, { ZERO_SCHEMA_VERSION: 'v2' }), { code: 'usage_error', message: 'Invalid value for ZERO_SCHEMA_VERSION: "v2". Expected one of: 1, 2.' });
});

t.test('schemaVersionFromArgv finds the version even in a broken command line, and never throws', async (t) => {
  t.equal(schemaVersionFromArgv(['exec', '--bogus', '--schema-version', '2']), 2);
  t.equal(schemaVersionFromArgv(['exec', '--schema-version=2']), 2);
  t.equal(schemaVersionFromArgv(['exec', '--schema-version', 'two']), undefined);
  t.equal(schemaVersionFromArgv(['exec'], { ZERO_SCHEMA_VERSION: '2' }), 2);
  t.equal(schemaVersionFromArgv(['exec'], { ZERO_SCHEMA_VERSION: '9' }), undefined);
  t.equal(schemaVersionFromArgv(['exec']), undefined);
});

t.test('-r/--reasoning-effort: minimal, low, medium or high, any case; anything else is a usage error', async (t) => {
  t.equal(execSettings([], {}).reasoningEffort, undefined);
  t.equal(execSettings([], { reasoningEffort: 'High' }).reasoningEffort, 'high');
  t.equal(execSettings([], { reasoningEffort: 'minimal' }).reasoningEffort, 'minimal');
  t.throws(() => execSettings([], { reasoningEffort: 'max' }), { code: 'usage_error', message: 'Invalid value for --reasoning-effort: "max". Expected one of: minimal, low, medium, high.' });
});

t.test('--profile NAME is --provider NAME; the two naming different providers is a usage error', async (t) => {
  t.equal(execSettings([], { profile: 'work' }).provider, 'work');
  t.equal(execSettings([], { profile: 'work', provider: 'work' }).provider, 'work');
  t.throws(() => execSettings([], { profile: 'work', provider: 'openai' }), { code: 'usage_error', message: '--provider openai and --profile work name different providers: give one of them.' });
});

t.test('--reasoning-budget: whole tokens, at least Anthropic\'s minimum of 1024', async (t) => {
  t.equal(execSettings([], {}).reasoningBudget, undefined);
  t.equal(execSettings([], { reasoningBudget: '2048' }).reasoningBudget, 2048);
  t.throws(() => execSettings([], { reasoningBudget: '1000' }), { code: 'usage_error', message: 'Invalid value for --reasoning-budget: "1000". Expected at least 1024 tokens (the smallest thinking budget Anthropic accepts).' });
  t.throws(() => execSettings([], { reasoningBudget: 'lots' }), { message: /--reasoning-budget: "lots"\. Expected a positive integer/ });
});

t.test('-p/--prompt: its values are prompt text, before the prompt words, joined by spaces as words are', async (t) => {
  t.same(execSettings([], { prompt: ['Fix the bug'] }).words, ['Fix the bug']);
  t.same(execSettings(['in', 'lib/'], { prompt: ['Fix', 'the bug'] }).words, ['Fix', 'the bug', 'in', 'lib/']);
});

t.test('the turn limit of the command line: --max-turns, else a --mode\'s, else ZERO_MAX_TURNS; none: undefined (config, else 50)', async (t) => {
  t.equal(execSettings(['hi'], {}).maxTurns, undefined);
  t.equal(execSettings(['hi'], {}, { ZERO_MAX_TURNS: '7' }).maxTurns, 7);
  t.equal(execSettings(['hi'], { maxTurns: '3' }, { ZERO_MAX_TURNS: '7' }).maxTurns, 3, 'the flag wins');
  t.equal(execSettings(['hi'], { mode: 'fast' }, { ZERO_MAX_TURNS: '7' }).maxTurns, 15, "a mode's limit is a preset, as a flag is in Zero");
  t.equal(execSettings(['hi'], { mode: 'smart' }, { ZERO_MAX_TURNS: '7' }).maxTurns, 7, 'a mode without one leaves it');
  t.equal(execSettings(['hi'], {}, { ZERO_MAX_TURNS: ' ' }).maxTurns, undefined, 'an empty variable is unset');
  for (const bad of ['0', 'ten', '1.5', '-2']) {
    t.throws(() => execSettings(['hi'], {}, { ZERO_MAX_TURNS: bad }), { code: 'usage_error', message: `Invalid value for ZERO_MAX_TURNS: "${bad}". Expected a positive integer.` });
  }
});

t.test("Zero's flags that do less here come back as warnings; the others as settings", async (t) => {
  const settings = execSettings(['hi'], { mode: 'Deep', allowEscalation: true, selfCorrect: true, worktree: 'fix-1', worktreeDir: 'trees', initSessionId: 'ci-42', sessionTitle: 'Nightly', tag: ['ci'] });
  t.equal(settings.warnings.length, 3);
  t.same(settings.worktree, { name: 'fix-1', baseDir: 'trees' });
  t.same(settings.labels, { id: 'ci-42', title: 'Nightly', tags: ['ci'] });
  t.same(execSettings(['hi'], {}).warnings, []);
  t.same(execSettings(['hi'], {}).labels, {});
});
