import t from 'tap';
import { zeroHere } from '../../helpers/cli.js';
import { jsonLines, tempDir, writeScript } from '../../helpers/zero.js';
import { choice, milliseconds, nonNegativeInteger, positiveInteger, seconds, MAX_TIMER_SECONDS } from '../../../lib/cli/option-values.js';
import { OUTPUT_FORMATS } from '../../../transforms/serialize.js';

// `zero exec --model --output-format json hello` ran with the model "--output-format": an empty $MODEL in a script.

t.test('an option whose value is another option is a usage error naming both, in the format asked for', async (t) => {
  const cases: [string[], string][] = [
    [['exec', '--model', '--output-format', 'json', 'hello'], `Option '-m, --model <name>' needs a value, but the next word is the option "--output-format" (write --model=VALUE for a value that starts with "-"). See zero exec --help.`],
    [['exec', '-o', 'stream-json', '-m', '-p', 'hello'], `Option '-m, --model <name>' needs a value, but the next word is the option "-p" (write --model=VALUE for a value that starts with "-"). See zero exec --help.`],
    [['exec', '-o', 'stream-json', '--add-dir', '--auto', 'high', 'hello'], `Option '--add-dir <dir>' needs a value, but the next word is the option "--auto" (write --add-dir=VALUE for a value that starts with "-"). See zero exec --help.`],
    [['exec', '-o', 'stream-json', 'hello', '--prompt', '--tag'], `Option '-p, --prompt <text>' needs a value, but the next word is the option "--tag" (write --prompt=VALUE for a value that starts with "-"). See zero exec --help.`],
    [['replay', '-o', 'stream-json', '--run', '--new-run-id', 'run.jsonl'], `Option '--run <id>' needs a value, but the next word is the option "--new-run-id" (write --run=VALUE for a value that starts with "-"). See zero replay --help.`],
  ];
  for (const [argv, message] of cases) {
    const result = await zeroHere(argv);
    t.equal(result.code, 2, argv.join(' '));
    const events = jsonLines(result.stdout);
    t.match(events.at(-2), { type: 'error', code: 'usage_error', message }, argv.join(' '));
    t.equal(events.at(-1)?.exitCode ?? events.at(-1)?.exit_code, 2);
  }
  const text = await zeroHere(['exec', '--provider', '--script', 's.jsonl', 'hi']);
  t.same([text.code, text.stdout, text.stderr], [2, '', `[zero] Option '--provider <name>' needs a value, but the next word is the option "--script" (write --provider=VALUE for a value that starts with "-"). See zero exec --help.\n`]);
});

t.test('values that only look like options pass: the inline form, -, numbers, and prompt words after --', async (t) => {
  const dir = tempDir(t);
  const script = writeScript(dir, [{ expect: { contains: ['-p is a flag'] }, text: 'ok' }]);
  const run = (args: string[], stdin?: string) => zeroHere(['exec', '--provider', 'scripted', '--script', script, '-C', dir, '--no-session', ...args], { stdin });
  t.same(await run(['--model=--odd', '--', '-p is a flag']), { code: 0, stdout: 'ok\n', stderr: '', signal: null }, '--model=--odd and words after --');
  t.same(await run(['-f', '-'], '-p is a flag'), { code: 0, stdout: 'ok\n', stderr: '', signal: null }, '-f - reads stdin');
  t.same(await run(['--prompt=-p is a flag']), { code: 0, stdout: 'ok\n', stderr: '', signal: null }, 'an inline prompt that starts with -');
  const negative = await run(['--max-retries', '-1', 'hi']);
  t.match(negative, { code: 2, stderr: /Invalid value for --max-retries: "-1"\. Expected a whole number/ }, 'a negative number reaches its own check');
});

t.test('a value parsed: from a list, a whole number, seconds and milliseconds a timer can wait; anything else a usage error naming the flag', async (t) => {
  t.equal(choice('--output-format', 'JSON', OUTPUT_FORMATS), 'json');
  t.throws(() => choice('--output-format', 'yaml', OUTPUT_FORMATS), { code: 'usage_error', message: 'Invalid value for --output-format: "yaml". Expected one of: text, json, stream-json.' });
  t.equal(nonNegativeInteger('--delay', '0'), 0);
  t.throws(() => nonNegativeInteger('--delay', '-1'), { code: 'usage_error' });
  t.throws(() => nonNegativeInteger('--max-problems', '1.5'), { code: 'usage_error' });
  t.equal(positiveInteger('--max-turns', '3'), 3);
  t.throws(() => positiveInteger('--max-turns', '0'), { code: 'usage_error', message: /--max-turns: "0"\. Expected a positive integer/ });
  t.equal(seconds('--timeout', '0.25'), 250);
  t.throws(() => seconds('--timeout', String(MAX_TIMER_SECONDS + 1)), { code: 'usage_error' });
  t.throws(() => seconds('--timeout', '0.0001'), { code: 'usage_error', message: /one millisecond/ });
  t.equal(milliseconds('--delay', '0'), 0);
  t.throws(() => milliseconds('--delay', String(2 ** 31)), { code: 'usage_error' });
  t.equal(positiveInteger('--max-turns', undefined), undefined);
});
