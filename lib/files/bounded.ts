import { createReadStream, type Stats } from 'node:fs';
import type { Readable } from 'node:stream';
import { closeFile, openRegularFile } from './open.js';

export type ChunkOptions = {
  /** At most this many bytes in all: past it the read fails with `tooLong()`, before the bytes past it are kept. */
  maxBytes?: number;
  tooLong?: () => Error;
  /** Aborting it stops the read at once, failing it with the signal's reason, whatever the source is waiting for. */
  signal?: AbortSignal;
};

/**
 * The chunks of `source` as Buffers, as they come. However it ends (the end of the source, the limit, an abort, the
 * caller stopping), the source is destroyed: a file or a pipe is closed, never left open behind a read.
 */
export async function* chunksOf(source: Readable, { maxBytes = Infinity, tooLong, signal }: ChunkOptions = {}): AsyncGenerator<Buffer> {
  const stop = () => source.destroy(signal?.reason);
  signal?.addEventListener('abort', stop, { once: true });
  let total = 0;
  try {
    signal?.throwIfAborted();
    for await (const chunk of source) {
      const bytes: Buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
      total += bytes.length;
      if (total > maxBytes) throw tooLong?.() ?? new Error(`The input is longer than ${maxBytes} bytes.`);
      yield bytes;
    }
  } finally {
    signal?.removeEventListener('abort', stop);
    source.destroy();
  }
}

/** All of `source` (see chunksOf), as one Buffer. */
export async function readBounded(source: Readable, options: ChunkOptions = {}): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of chunksOf(source, options)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * The bytes of the regular file at `path` (named `shownPath` in errors; anything else is refused with a
 * NotRegularFileError, see openRegularFile) and its stats. A file over `maxBytes` fails with `tooLarge(size)`
 * before it is read, or with `tooLarge()` should it grow past the limit while it is read.
 */
export async function readRegularFile(path: string, shownPath: string, maxBytes: number, tooLarge: (size?: number) => Error): Promise<{ bytes: Buffer; stats: Stats }> {
  const { fd, stats } = await openRegularFile(path, shownPath);
  if (stats.size > maxBytes) {
    await closeFile(fd);
    throw tooLarge(stats.size);
  }
  return { bytes: await readBounded(createReadStream('', { fd, start: 0 }), { maxBytes, tooLong: () => tooLarge() }), stats };
}
