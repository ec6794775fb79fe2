import t from 'tap';
import { PassThrough, Writable } from 'node:stream';
import type { CliIO } from '../../../lib/cli/io.js';
import { createScreen, screenFor } from '../../../lib/cli/screen.js';

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
