import { UsageError } from '../errors.js';
import { isTooDeep, mayBeTooDeep, MAX_JSON_DEPTH, TOO_DEEP } from './depth.js';
import type { Line, Parsed } from './types.js';
import { mapStep, type Step } from '../streams.js';

/**
 * JSON.parse of one framed line; anything but a JSON object, or one nested more than `maxDepth` levels,
 * is an error that names the line.
 */
export function parseLine({ line, lineNo }: Line, label = 'stream-json input', { maxDepth = MAX_JSON_DEPTH } = {}): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    value = undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new UsageError(`Invalid ${label} at line ${lineNo}: expected a JSON object.`);
  }
  if (mayBeTooDeep(line, maxDepth) && isTooDeep(value, maxDepth)) throw new UsageError(`Invalid ${label} at line ${lineNo}: ${TOO_DEEP}.`);
  return { value, lineNo };
}

/** The parse stage's step: each framed line as its JSON object (a line that is not one fails it, naming the line). */
export const parseStep = (label?: string): Step<Line, Parsed> => mapStep((line: Line) => parseLine(line, label));
