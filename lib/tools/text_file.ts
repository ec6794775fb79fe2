import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';

const SNIFF_BYTES = 8192;

/** A file is treated as binary when its first 8 KiB contain a NUL byte. */
export async function isBinaryFile(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await file.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead).includes(0);
  } finally {
    await file.close();
  }
}

/**
 * Streams the lines of a UTF-8 file (without their line endings); stopping early closes the file,
 * and aborting `signal` makes the iteration throw.
 */
export async function* readLines(path: string, signal?: AbortSignal): AsyncGenerator<string> {
  const input = createReadStream(path, { encoding: 'utf8', signal });
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    yield* lines;
  } finally {
    lines.close();
    input.destroy();
  }
}
