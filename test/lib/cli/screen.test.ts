import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import type { CliIO } from '../../../lib/cli/io.js';
import { PIPE_SETTLE_MS, createScreen, screenFor } from '../../../lib/cli/screen.js';
import { onTerminal, screenLines } from '../../helpers/terminal.js';
import { ZERO, cleanEnv, tempDir, writeScript, zero } from '../../helpers/zero.js';

/** A screen both streams write to, stdout through a pipe that takes each chunk a moment later (as a terminal may). */
function sharedScreen(options: { stderrIsTTY?: boolean; stdoutPlace?: CliIO['stdoutPlace'] } = {}) {
  const shown: string[] = [];
  const exits: number[] = [];
  const stdout = new Writable({
    write(chunk, _encoding, callback) {
      setImmediate(() => {
        shown.push(String(chunk));
        callback();
      });
    },
  });
  const io: CliIO = { stdin: new PassThrough(), stdout, stderr: { write: (text) => shown.push(text), isTTY: options.stderrIsTTY }, env: {}, exit: (code) => void exits.push(code), stdoutPlace: options.stdoutPlace };
  return { shown, exits, io };
}

const write = (stream: NodeJS.WritableStream, text: string) => new Promise<void>((resolve) => stream.write(text, () => resolve()));

t.test('a progress line waits until stdout has taken the answer text before it', async (t) => {
  const { shown, io } = sharedScreen();
  const screen = createScreen(io);
  const sent = write(screen.io.stdout, 'Let me read the README.\n');
  screen.progress.writeAfter!('[tool] read_file README.md\n', 24);
  t.same(shown, [], 'held: the text is still on its way');
  await sent;
  t.same(shown, ['Let me read the README.\n', '[tool] read_file README.md\n']);
  screen.progress.writeAfter!('[ok] 1 line\n', 24);
  t.same(shown.at(-1), '[ok] 1 line\n', 'nothing ahead of it: at once');
});

t.test('stdout piped, stderr a terminal (`| tee`): progress waits a moment after the text before it, and the text after waits for it', async (t) => {
  const { shown, io } = sharedScreen({ stderrIsTTY: true, stdoutPlace: 'unknown' });
  const screen = createScreen(io);
  const sent = write(screen.io.stdout, 'Let me look.\n');
  screen.progress.writeAfter!('[tool] glob *.ts\n', 13);
  const after = write(screen.io.stdout, 'Found them.\n');
  await sent;
  const took = Date.now();
  t.same(shown, ['Let me look.\n'], 'stdout took the text; the progress line gives its reader time to show it');
  await after;
  t.ok(Date.now() - took >= PIPE_SETTLE_MS - 5, 'a moment later');
  t.same(shown, ['Let me look.\n', '[tool] glob *.ts\n', 'Found them.\n'], 'and the text after it came after it');
  const known = sharedScreen({ stderrIsTTY: true, stdoutPlace: 'elsewhere' });
  const elsewhere = createScreen(known.io);
  await write(elsewhere.io.stdout, 'Let me look.\n');
  elsewhere.progress.writeAfter!('[tool] glob *.ts\n', 13);
  t.same(known.shown, ['Let me look.\n', '[tool] glob *.ts\n'], 'stdout known to be elsewhere: no wait');
});

t.test('silenced (stdout is lost), held progress is dropped; at the exit, progress still held is written first', async (t) => {
  const quiet = sharedScreen();
  const silenced = createScreen(quiet.io);
  silenced.progress.writeAfter!('[tool] x\n', 10);
  silenced.progress.silence();
  silenced.progress.write('[zero] late\n');
  silenced.io.exit(141);
  t.same(quiet.shown, []);
  t.same(quiet.exits, [141]);
  const ending = sharedScreen();
  const screen = createScreen(ending.io);
  screen.progress.writeAfter!('[zero] Cancelled by SIGINT.\n', 99);
  screen.io.exit(130);
  t.same(ending.shown, ['[zero] Cancelled by SIGINT.\n']);
});

t.test('the JSON formats write stdout as it is: no screen in between', async (t) => {
  const { io } = sharedScreen();
  t.equal(screenFor(io, 'stream-json').io, io);
  t.not(screenFor(io, 'text').io, io);
});

t.test('on a terminal: a spinner while the model is silent, erased before the answer; tool lines cut to the width', async (t) => {
  const dir = tempDir(t);
  const script = writeScript(dir, [
    { delayMs: 1500, chunks: ['Thinking done.'], toolCalls: [{ id: 'c1', name: 'glob', args: { pattern: `${'very/long/'.repeat(10)}*.ts` } }] },
    { text: 'Nothing found.' },
  ]);
  const { NO_COLOR: _tapSetsIt, ...env } = cleanEnv({ ZERO_HOME: tempDir(t) });
  const raw = await onTerminal([process.execPath, ZERO, 'exec', '--provider', 'scripted', '--script', script, '-C', dir, 'go'], { env, columns: 50 });
  t.match(raw, /\r\x1b\[K\x1b\[2m. waiting for the model…/, 'the spinner was shown');
  const lines = screenLines(raw).filter(Boolean);
  t.notOk(lines.some((line) => line.includes('waiting for')), 'and erased: it is on no line of the screen');
  t.same(lines.slice(0, 4), ['Thinking done.', '[tool] glob very/long/very/long/very/long/very/l…', '[ok] No files match "very/long/very/long/very/lo…', 'Nothing found.']);
  t.equal(lines[1]!.length, 49, 'the width less one column');
  const piped = await zero(['exec', '--provider', 'scripted', '--script', script, '-C', dir, 'go'], { env });
  t.notMatch(piped.stderr, /waiting|\x1b/, 'piped: no spinner, no escape codes');
});

t.test('zero exec … | tee log on a terminal: the screen holds the whole answer; the spinner only where stderr owns the line', async (t) => {
  const dir = tempDir(t);
  // slow chunks: without a care for where stdout goes, the spinner would start mid-answer and erase it
  // (redaction holds a delta's last word: "The answer is " reaches the screen with the first)
  const script = writeScript(dir, [
    { delayMs: 1500, chunks: ['The answer is 42', ' for sure.'], toolCalls: [{ id: 'c1', name: 'glob', args: { pattern: '*.none' } }] },
    { text: 'Done.' },
  ]);
  const { NO_COLOR: _tapSetsIt, ...env } = cleanEnv({ ZERO_HOME: tempDir(t), TERM: 'xterm-256color' });
  const log = join(dir, 'log');
  const raw = await onTerminal([process.execPath, ZERO, 'exec', '--provider', 'scripted', '--script', script, '-C', dir, 'go'], { env, columns: 200, pipeTo: `tee '${log}'` });
  t.equal(readFileSync(log, 'utf8'), 'The answer is 42 for sure.\nDone.\n', 'the log is the answer');
  t.match(raw, /\r\x1b\[K\x1b\[2m. waiting for the model…/, 'the spinner was shown while nothing was on the line');
  const lines = screenLines(raw, 200).filter(Boolean);
  t.match(lines, ['The answer is 42 for sure.', '[tool] glob *.none', /^\[ok\] No files match/, 'Done.', /^\[zero\] session zero_\w+; continue it with/], 'the screen: the answer whole, each progress line on its own');
  t.equal(lines.length, 5);
});

t.test('TERM=dumb: no spinner frames, no cursor movement, no colour', async (t) => {
  const dir = tempDir(t);
  const script = writeScript(dir, [{ delayMs: 1500, text: 'Slow answer.' }]);
  const { NO_COLOR: _tapSetsIt, ...env } = cleanEnv({ ZERO_HOME: tempDir(t), TERM: 'dumb' });
  const raw = await onTerminal([process.execPath, ZERO, 'exec', '--provider', 'scripted', '--script', script, '-C', dir, 'go'], { env });
  t.notMatch(raw, /\x1b|waiting for/, 'no escape sequence, no spinner');
  t.notMatch(raw.replace(/\r\n/g, '\n'), /\r/, 'no carriage return but the terminal\'s own line ends');
  t.match(raw, /^Slow answer\.\r\n\[zero\] session zero_\w+; continue it with: zero exec --resume zero_\w+ "<next prompt>"\r\n$/);
});
