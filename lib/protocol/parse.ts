import { UsageError } from '../errors.js';
import type { Line, Parsed } from './types.js';

/** JSON.parse of one framed line; anything but a JSON object is an error that names the line. */
export function parseLine({ line, lineNo }: Line, label = 'stream-json input'): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    value = undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new UsageError(`Invalid ${label} at line ${lineNo}: expected a JSON object.`);
  }
  return { value, lineNo };
}
