// A module loader hook (node --import): prints every file module the process loads on stderr, one per line.
// Written to fd 2 at once: the hooks' thread's process.stderr is piped to the main thread, and a process that exits
// right away (zero --version) loses what is still in that pipe.
import { writeSync } from 'node:fs';

export async function load(url, context, next) {
  if (url.startsWith('file:')) writeSync(2, `[loaded] ${url}\n`);
  return next(url, context);
}
