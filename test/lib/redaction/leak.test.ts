import t from 'tap';
import { randomInt } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prng } from '../../../bench/prng.js';
import { contexts, escapedContexts, secretsCorpus, type CorpusEntry } from '../../fixtures/secrets/corpus.js';
import { zeroHere } from '../../helpers/cli.js';
import { cleanEnv, jsonLines, tempDir, writeScript, zero, type Result } from '../../helpers/zero.js';

/*
 * The leak harness (issue 11). One scripted run carries a random secret of
 * every redaction rule, and two credentials in use (one in the environment,
 * one in a config profile that is not the active one) in each encoding, in
 * every place a secret can enter: the prompt, model text split at random
 * offsets, tool arguments, tool call ids, tool output (halves and base64
 * printed by the shell), file names, an error body, the model name and the
 * cwd. It runs `zero exec` in all three formats and with --debug, then every
 * log tool on what was recorded (and on a hand-made log holding the secrets
 * raw), and searches stdout, stderr and every file under ZERO_HOME for any
 * 8-character piece of any planted secret. (Pieces made only of capitals,
 * spaces and dashes — `-----BEGIN RSA` of a PEM header — are not secret.)
 *
 * The seed is random per run and printed; ZERO_LEAK_SEED=N repeats a run.
 */

const seed = Number(process.env.ZERO_LEAK_SEED ?? randomInt(2 ** 31));
t.comment(`seed ${seed} (ZERO_LEAK_SEED=${seed} to repeat)`);
const next = prng(seed);
const int = (max: number) => Math.floor(next() * max);
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const chars = (n: number, alphabet = ALNUM) => Array.from({ length: n }, () => alphabet[int(alphabet.length)]).join('');

const corpus: CorpusEntry[] = secretsCorpus(seed, 1);
const pick = (entry: CorpusEntry) => entry.contexts[int(entry.contexts.length)];
const ofRule = (rule: string) => corpus.find((entry) => entry.rule === rule)!.secret;

/** Credentials in use: no rule knows their format, only their exact value. The profile key has a `/`, so its URL-encoded form differs. */
const envKey = `zk${chars(4, '0123456789')}${chars(34)}`;
const profileKey = `pk${chars(4, '0123456789')}${chars(14)}/${chars(20)}`;
const credentials = [envKey, profileKey];

/** Every way a credential is written: as is, base64, URL-encoded, JSON-escaped and as an HTML entity. */
function encodings(key: string): string[] {
  const code = key.charCodeAt(0);
  return [key, Buffer.from(key).toString('base64'), encodeURIComponent(key), `\\u${code.toString(16).padStart(4, '0')}${key.slice(1)}`, `&#${code};${key.slice(1)}`];
}

/** One text holding every planted secret: a random context of each rule, escaped pattern secrets, every credential encoding. */
function everything(): string {
  // (not the PEM block: the stream holds back a header that starts `-----BEGIN`, not one whose first `-` is escaped)
  const selfIdentifying = corpus.filter((entry) => entry.contexts.length === contexts(entry.secret).length && entry.rule !== 'pem-private-key');
  return [
    ...corpus.map(pick),
    ...selfIdentifying.map((entry) => escapedContexts(entry.secret)[int(3)]),
    ...credentials.flatMap(encodings).map((form) => `value ${form} here`),
  ].join('\n');
}

/** The text cut at `cuts` random offsets (chunks of one model turn, each a text delta). */
function splitAtRandom(text: string, cuts: number): string[] {
  const offsets = [...new Set(Array.from({ length: cuts }, () => 1 + int(text.length - 1)))].sort((a, b) => a - b);
  return [0, ...offsets].map((start, index) => text.slice(start, offsets[index] ?? text.length));
}

/**
 * A secret that comes after more than 1 KiB of text without whitespace (compact
 * JSON), split across two deltas. EXPECTED TO LEAK until the streaming
 * hold-back fix of issue 11 item 1 (lib/redaction/stream.ts) is merged: it is
 * checked on its own below, so that failure is told apart from the rest.
 */
const longRunKey = `sk-proj-${chars(3, '0123456789')}${chars(40)}`;
const longRunChunks = [`{"c":"${'x'.repeat(1100)}","key":"${longRunKey.slice(0, 12)}`, `${longRunKey.slice(12)}"}`];

const planted = [...corpus.map((entry) => entry.secret), ...credentials];

/** Every 8-character piece of `secret` that is in `text` (pieces of capitals, spaces and dashes only are not secret). */
function pieces(secret: string, text: string): string[] {
  const found: string[] = [];
  for (let at = 0; at + 8 <= secret.length; at++) {
    const piece = secret.slice(at, at + 8);
    if (/[a-z0-9]/.test(piece) && text.includes(piece)) found.push(piece);
  }
  return found;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** `where: piece in …context…` for the first piece of each secret found in each output. */
function leaks(outputs: Map<string, string>, secrets: string[]): string[] {
  return [...outputs].flatMap(([where, text]) =>
    secrets.flatMap((secret) =>
      pieces(secret, text).slice(0, 1).map((piece) => {
        const at = text.indexOf(piece);
        return `${where}: ${JSON.stringify(piece)} in ${JSON.stringify(text.slice(Math.max(0, at - 60), at + 40))}`;
      }),
    ),
  );
}

t.test('no piece of a planted secret reaches stdout, stderr or ZERO_HOME', async (t) => {
  const home = tempDir(t);
  const work = tempDir(t);
  const configHome = join(work, 'config');
  mkdirSync(join(configHome, 'zero'), { recursive: true });
  writeFileSync(join(configHome, 'zero', 'config.json'), JSON.stringify({ providers: [{ name: 'spare', provider: 'openai', apiKey: profileKey }] }));
  const env = cleanEnv({ ZERO_HOME: home, ZERO_API_KEY: envKey, XDG_CONFIG_HOME: configHome });

  // the cwd and file names carry secrets too
  const cwd = join(work, `ws-${ofRule('huggingface-token')}-${envKey}`);
  mkdirSync(cwd);
  writeFileSync(join(cwd, `${ofRule('npm-token')}.txt`), 'x');
  writeFileSync(join(cwd, `${profileKey.replace('/', '_')}.log`), 'x');
  writeFileSync(join(cwd, 'notes.txt'), `${everything()}\n`);

  const ids = { pattern: `call_${ofRule('github-token')}`, credential: `id_${envKey}` };
  const script = writeScript(work, [
    {
      chunks: [...splitAtRandom(everything(), 40), ' ', ...longRunChunks],
      toolCalls: [
        { id: ids.pattern, name: 'bash', args: { command: `cat notes.txt; ls; echo ${ofRule('stripe-key')}` } },
        { id: ids.credential, name: 'bash', args: { command: 'printf "%s\\n" "$ZERO_API_KEY" | cut -c1-12' } },
        { id: 'c3', name: 'bash', args: { command: 'printf "%s\\n" "$ZERO_API_KEY" | cut -c13-' } },
        { id: 'c4', name: 'bash', args: { command: 'printf "%s" "$ZERO_API_KEY" | base64; printf "KEY=%s\\n" "$ZERO_API_KEY" | base64' } },
        { id: 'c5', name: 'read_file', args: { path: `${ofRule('groq-key')}/${envKey}.txt`, note: everything() } },
      ],
    },
    { error: { message: `upstream said: ${everything()}`, status: 400 } },
  ]);
  const model = `m-${ofRule('google-api-key')}-${envKey}`;
  const exec = (args: string[]) =>
    zero(['exec', ...args, '--skip-permissions-unsafe', '--provider', 'scripted', '--script', script, '--model', model, '-C', cwd, everything()], { env });

  const outputs = new Map<string, string>();
  const keep = (name: string, result: Result) => {
    outputs.set(`${name} stdout`, result.stdout);
    outputs.set(`${name} stderr`, result.stderr);
    return result;
  };

  // independent runs (a session each): run side by side
  const [, , streamed, recorded] = await Promise.all([
    exec(['-o', 'text']).then((result) => keep('exec -o text', result)),
    exec(['-o', 'json']).then((result) => keep('exec -o json', result)),
    exec(['-o', 'stream-json', '--debug']).then((result) => keep('exec -o stream-json --debug', result)),
    exec(['-o', 'stream-json']).then((result) => keep('exec -o stream-json', result)),
  ]);
  const events = jsonLines(recorded.stdout);
  t.ok(events.some((event) => event.type === 'tool_result'), 'the tools ran');
  t.match(events.at(-1), { type: 'run_end', status: 'error' }, 'the run ended on the error body');
  t.ok(streamed.stderr.includes('[zero debug]'), 'the debug log was written');
  const pairs = events.filter((event) => event.type === 'tool_call').map((event) => event.id);
  t.same(events.filter((event) => event.type === 'tool_result').map((event) => event.id), pairs, 'redacted ids still pair calls with results');

  const log = join(work, 'run.jsonl');
  writeFileSync(log, recorded.stdout);
  const sessionId = String(events[0].sessionId);
  const sessionFile = join(home, 'sessions', sessionId, 'events.jsonl');
  t.ok(statSync(sessionFile).isFile(), 'the run was recorded');

  // a hand-made log: the same secrets raw in every field zero prints
  const handMade = join(work, 'hand-made.jsonl');
  const runId = 'run_20260101000000_abcdef';
  writeFileSync(handMade, [
    { type: 'run_start', model, cwd, provider: everything() },
    { type: 'text', delta: everything() },
    { type: 'tool_call', id: ids.pattern, name: `tool_${ofRule('slack-token')}_${envKey}`, args: { x: everything() }, sideEffect: envKey },
    { type: 'tool_call', id: `[${ofRule('openai-key')}]`, name: 'bash', args: {} },
    { type: 'tool_result', id: ids.credential, status: 'ok', output: everything(), truncated: false },
    { type: 'warning', message: everything() },
    { type: 'error', code: `code_${envKey}`, message: everything(), recoverable: false },
  ].map((event) => JSON.stringify({ schemaVersion: 1, runId, ...event })).join('\n') + '\n');

  const logTools = (file: string) => [
    ['validate', file], ['validate', file, '-o', 'json'], ['stats', file], ['stats', file, '-o', 'json'],
    ['render', file], ['render', file, '--format', 'html'], ['redact', file], ['replay', file], ['replay', file, '-o', 'text'],
  ];
  const commands = [
    ...['text', 'json', 'stream-json'].flatMap((format) => [['sessions', 'list', '-o', format], ['sessions', 'show', sessionId, '-o', format]]),
    ...logTools(log),
    ...logTools(handMade),
  ];
  const name = (args: string[]) => `zero ${args.join(' ').replace(work, '…')}`;
  // in this process, one at a time (each changes the process's cwd): what they print goes through main's stdout and
  // stderr, as in bin/zero (nothing in lib/ writes to process.stdout or process.stderr itself)
  for (const args of commands) keep(name(args), await zeroHere(args, { env, cwd: work }));
  // the session file itself, as a log (it also holds the prompt), by bin/zero: read-only, side by side
  const sessionCommands = [['validate', sessionFile], ['render', sessionFile], ['redact', sessionFile]];
  await Promise.all(sessionCommands.map(async (args) => keep(name(args), await zero(args, { env, cwd: work }))));
  for (const file of filesUnder(home)) {
    // launch.json keeps what resume needs as it is (the working directory here holds a secret in its name, which is
    // on this disk already): issue 25 asks for it stored privately, 0600, and never printed (the outputs above).
    if (file.endsWith('/launch.json')) t.equal(statSync(file).mode & 0o777, 0o600, `${file.replace(home, 'ZERO_HOME')} is private`);
    else outputs.set(file.replace(home, 'ZERO_HOME'), readFileSync(file, 'utf8'));
  }
  t.ok(filesUnder(home).some((file) => file.endsWith('metadata.json')), 'metadata.json was searched');

  t.same(leaks(outputs, planted), [], `${planted.length} secrets, ${outputs.size} outputs: no piece of any secret`);
  // Issue 11 item 1: fails until the streaming hold-back fix is merged (see longRunChunks).
  t.same(leaks(outputs, [longRunKey]), [], 'a secret split after a long whitespace-free run does not leak either');
});
