import { UsageError } from '../errors.js';
import type { Line } from './types.js';

export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

export type LineOptions = { maxLineBytes?: number; label?: string };

/** Too long for the limit? Counts UTF-8 bytes, but only when the character count leaves doubt. */
function exceeds(line: string, maxBytes: number): boolean {
  if (line.length > maxBytes) return true;
  if (line.length * 3 <= maxBytes) return false;
  return Buffer.byteLength(line, 'utf8') > maxBytes;
}

export function lineTooLong(lineNo: number, maxBytes: number, label = 'stream-json input'): UsageError {
  return new UsageError(`Invalid ${label} at line ${lineNo}: the line is longer than ${maxBytes} bytes (--max-line-bytes).`);
}

/**
 * Numbers physical lines from 1 and keeps the ones with content (docs/protocol.md §1):
 * a BOM at the very start is dropped, a trailing `\r` too, blank lines are
 * counted but not returned. Throws when a line passes the byte limit.
 */
export function createLineNumberer(options: LineOptions = {}) {
  const maxBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let lineNo = 0;
  return {
    /** The number the next line will get: the one being read when the tail overflows. */
    get nextLineNo() {
      return lineNo + 1;
    },
    number(raw: string): Line | undefined {
      lineNo += 1;
      let line = lineNo === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (exceeds(line, maxBytes)) throw lineTooLong(lineNo, maxBytes, options.label);
      return line.trim() === '' ? undefined : { line, lineNo };
    },
  };
}
