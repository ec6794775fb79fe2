import t from 'tap';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { checkFraming, openLogs, READ_CHUNK_BYTES, readsStdin } from '../../../lib/cli/log-source.js';

async function chunks(readable: Readable): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const chunk of readable) out.push(Buffer.isBuffer(chunk) ? chunk.toString() : chunk);
  return out;
}

t.test('openLogs: stdin, one file as it is', async (t) => {
  const stdin = new PassThrough();
  t.equal(openLogs([], stdin), stdin);
  t.equal(openLogs(['-'], stdin), stdin);
  t.ok(readsStdin([]) && readsStdin(['a', '-']) && !readsStdin(['a']));
  const dir = t.testdir({ 'a.jsonl': 'x' });
  const file = openLogs([join(dir, 'a.jsonl')], stdin);
  t.equal(file.readableHighWaterMark, READ_CHUNK_BYTES, 'read in 32 KiB pieces');
  t.same(await chunks(file), ['x']);
});

t.test('openLogs: a file that cannot be read is a usage error naming it, before anything is read', async (t) => {
  const stdin = new PassThrough();
  const dir = t.testdir({ 'a.jsonl': 'x', empty: {} });
  t.throws(() => openLogs(['/nonexistent/file'], stdin), /Cannot read \/nonexistent\/file: ENOENT/);
  t.throws(() => openLogs([join(dir, 'a.jsonl'), '/nonexistent/file'], stdin), /Cannot read \/nonexistent\/file: ENOENT/, 'the second of several too');
  t.throws(() => openLogs([join(dir, 'empty')], stdin), new RegExp(`Cannot read ${join(dir, 'empty')}: a folder without events.jsonl`));
  t.throws(() => openLogs(['/dev/null'], stdin), /Cannot read \/dev\/null: not a file/);
  t.throws(() => openLogs(['-', join(dir, 'a.jsonl'), '-'], stdin), /Stdin \(-\) can be read only once/);
});

t.test('openLogs: a session folder is read as its events.jsonl; several inputs in order, each after the start of its file', async (t) => {
  const dir = t.testdir({ 'a.jsonl': 'a1\na2', 'b.jsonl': 'b1\n' });
  mkdirSync(join(dir, 'zero_x'));
  writeFileSync(join(dir, 'zero_x', 'events.jsonl'), 's1\n');
  t.same(await chunks(openLogs([join(dir, 'zero_x')], new PassThrough())), ['s1\n']);
  const stdin = Readable.from([Buffer.from('in\n')]);
  const joined = await chunks(openLogs([join(dir, 'a.jsonl'), '-', join(dir, 'zero_x'), join(dir, 'b.jsonl')], stdin));
  t.same(joined, [
    { logFile: join(dir, 'a.jsonl') },
    'a1\na2',
    { logFile: 'stdin' },
    'in\n',
    { logFile: join(dir, 'zero_x', 'events.jsonl') },
    's1\n',
    { logFile: join(dir, 'b.jsonl') },
    'b1\n',
  ]);
});

t.test('option checks', async (t) => {
  t.equal(checkFraming('values'), 'values');
  t.throws(() => checkFraming('xml'), /Invalid value for --framing/);
  t.equal(checkFraming('VALUES'), 'values', 'case-insensitive, like every choice flag');
});

t.test('bin/zero: a log tool that cannot read its input says so on stderr, writes nothing on stdout, exits 2', async (t) => {
  const { cleanEnv, zero } = await import('../../helpers/zero.js');
  const dir = t.testdir({ 'ok.jsonl': '' });
  const missing = join(dir, 'missing.jsonl');
  const commands = [
    ['redact', join(dir, 'ok.jsonl'), missing],
    ['replay', missing, '-o', 'stream-json'],
    ['stats', missing, '-o', 'json'],
    ['validate', missing, '-o', 'stream-json'],
    ['render', missing, '-o', 'html'],
  ];
  await Promise.all(
    commands.map(async (args) => {
      const result = await zero(args);
      t.same([result.code, result.stdout, result.stderr], [2, '', `[zero] Cannot read ${missing}: ENOENT (No such file or directory)\n`], args.join(' '));
    }),
  );
  const unknown = await zero(['sessions', 'show', 'zero_20990101000000_aaaaaa', '-o', 'stream-json'], { env: cleanEnv({ ZERO_HOME: dir }) });
  t.same([unknown.code, unknown.stdout, unknown.stderr], [2, '', '[zero] Zero session not found: zero_20990101000000_aaaaaa\n'], 'sessions show: no run made up either');
});
