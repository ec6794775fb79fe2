import t from 'tap';
import { PassThrough, Writable } from 'node:stream';
import type { CliIO } from '../../../lib/cli/io.js';
import { createScreen, screenFor } from '../../../lib/cli/screen.js';
import { onTerminal, screenLines } from '../../helpers/terminal.js';
import { ZERO, cleanEnv, tempDir, writeScript, zero } from '../../helpers/zero.js';

/** A screen both streams write to, stdout through a pipe that takes each chunk a moment later (as a terminal may). */
function sharedScreen(options: { stderrIsTTY?: boolean } = {}) {
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
  const io: CliIO = { stdin: new PassThrough(), stdout, stderr: { write: (text) => shown.push(text), isTTY: options.stderrIsTTY }, env: {}, exit: (code) => void exits.push(code) };
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
