import { close, constants, createReadStream, fstat, open, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Socket } from 'node:net';
import { constants as osConstants } from 'node:os';
import type { Readable } from 'node:stream';
import { isatty, ReadStream as TtyReadStream } from 'node:tty';
import { promisify } from 'node:util';

/**
 * How every file zero reads is opened. O_NONBLOCK makes open() of a FIFO nobody writes to (or of a serial line)
 * return at once: a blocking open would hold one of libuv's pool threads, which neither an abort nor a time limit
 * can free, and which process.exit waits for, so the process could not even exit on a signal. On a regular file
 * O_NONBLOCK changes nothing. O_NOCTTY: a terminal opened here never becomes the controlling terminal.
 */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

const openFd = promisify(open);
const fstatFd = promisify(fstat);
const closeFd = promisify(close);

/** An open file descriptor and what it is (fstat: the file opened, not whatever the path names by now). */
export type OpenFile = { fd: number; stats: Stats };

/** Opens `path` to read without ever waiting (see READ_FLAGS); the caller closes it (closeFile) or hands it to streamOf. */
export async function openToRead(path: string): Promise<OpenFile> {
  const fd = await openFd(path, READ_FLAGS);
  try {
    return { fd, stats: await fstatFd(fd) };
  } catch (error) {
    await closeFile(fd);
    throw error;
  }
}

export function closeFile(fd: number): Promise<void> {
  return closeFd(fd).catch(() => undefined);
}

/** The type tests that Stats and a directory entry (Dirent) share. */
export type FileType = Pick<Stats, 'isFile' | 'isDirectory' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice' | 'isSymbolicLink'>;

/** What a file is, as a message names it. */
export function fileKind(stats: FileType): string {
  if (stats.isFile()) return 'a regular file';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  return 'a special file';
}

/** A FIFO, a socket or a device: what no tool reads (a file, a directory or a symlink is not one). */
export function isSpecialFile(stats: FileType): boolean {
  return stats.isFIFO() || stats.isSocket() || stats.isCharacterDevice() || stats.isBlockDevice();
}

/** The refusal of a path that is not a regular file; `kind` is what it is (fileKind). */
export class NotRegularFileError extends Error {
  readonly kind: string;
  constructor(shownPath: string, readonly stats: Stats) {
    super(`"${shownPath}" is ${fileKind(stats)}, not a regular file: the file tools read regular files only, never FIFOs, sockets or devices.`);
    this.kind = fileKind(stats);
  }
}

/**
 * Opens `path` (named `shownPath` in errors) if it is a regular file, and refuses anything else before a byte is
 * read. The check is made on the file opened, so a file swapped for a FIFO after an earlier stat cannot get through.
 */
export async function openRegularFile(path: string, shownPath: string): Promise<OpenFile> {
  let file: OpenFile;
  try {
    file = await openToRead(path);
  } catch (error) {
    // A socket cannot be opened at all (ENXIO): say what it is rather than "no such device".
    if ((error as NodeJS.ErrnoException).code === 'ENXIO') {
      const stats = await stat(path).catch(() => undefined);
      if (stats && !stats.isFile()) throw new NotRegularFileError(shownPath, stats);
    }
    throw error;
  }
  if (!file.stats.isFile()) {
    await closeFile(file.fd);
    throw new NotRegularFileError(shownPath, file.stats);
  }
  return file;
}

/**
 * A file named on the command line (--file, --script), opened to be read in order whatever it is: a regular file,
 * a FIFO (`<(cmd)`, a named pipe a writer opens later), a device; a directory fails as reading one would (EISDIR).
 */
export async function openStream(path: string): Promise<Readable> {
  const file = await openToRead(path);
  if (file.stats.isDirectory()) {
    await closeFile(file.fd);
    throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${path}'`), { code: 'EISDIR', errno: -osConstants.errno.EISDIR, syscall: 'read', path });
  }
  return streamOf(file);
}

/**
 * The bytes of an open file as a stream, which owns the descriptor from now on (destroying it closes it). A pipe
 * or a terminal is read through the event loop as Node reads stdin, never by a pool thread that would wait for a
 * writer; a regular file or another device (/dev/zero) is read by the pool, where a read never waits for long.
 */
export function streamOf({ fd, stats }: OpenFile, highWaterMark = 64 * 1024): Readable {
  if (stats.isFIFO()) return new Socket({ fd, readable: true, writable: false });
  if (isatty(fd)) return new TtyReadStream(fd);
  return createReadStream('', { fd, highWaterMark });
}
