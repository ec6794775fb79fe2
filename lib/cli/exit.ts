/**
 * The process's exit, safe on a terminal that hung up (an ssh link that dropped, a closed terminal window). Node
 * restores each terminal's settings as it exits, and aborts when that fails (nodejs/node#51519): after the run
 * wrote its run_end, the process died of SIGABRT or SIGSEGV with a native dump on stderr. Node skips a descriptor
 * that no longer refers to the file it started with, so a hung-up terminal is replaced by /dev/null first.
 */

import { closeSync, openSync } from 'node:fs';
import { isatty } from 'node:tty';

const STDIO = [0, 1, 2] as const;
/** Which of stdin, stdout and stderr were terminals when this module loaded (bin/zero loads it first). */
const startedOnTerminal = STDIO.map((fd) => isatty(fd));

const covered = [false, false, false];

/**
 * Puts /dev/null where a terminal of stdio hung up (isatty says no more): the lowest free descriptor is the one
 * closed. bin/zero also calls it on 'exit', for a command that ends without process.exit.
 */
export function coverHungUpTerminals(): void {
  for (const fd of STDIO) {
    if (!startedOnTerminal[fd] || covered[fd] || isatty(fd)) continue;
    covered[fd] = true;
    try {
      closeSync(fd);
      const opened = openSync('/dev/null', 'r+');
      if (opened !== fd) closeSync(opened);
    } catch {
      // nothing better to do on the way out
    }
  }
}

export function exitProcess(code: number): never {
  coverHungUpTerminals();
  return process.exit(code);
}
