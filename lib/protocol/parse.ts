import { UsageError } from '../errors.js';
import { isLineTooDeep, MAX_JSON_DEPTH, TOO_DEEP } from './depth.js';
import type { Line, Parsed } from './types.js';
import { mapStep, type Step } from '../streams.js';

/**
 * JSON.parse of one framed line; anything but a JSON object, or one nested more than `maxDepth` levels,
 * is an error that names the line.
 */
export type ParseOptions = {
  maxDepth?: number;
  /** A line that is not JSON is reported with the parser's reason, and a lone `{` or `[` with a hint (input people pipe in, often through `jq .`). */
  explainSyntax?: boolean;
};

export function parseLine({ line, lineNo }: Line, label = 'stream-json input', { maxDepth = MAX_JSON_DEPTH, explainSyntax = false }: ParseOptions = {}): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    if (!explainSyntax) throw new UsageError(`Invalid ${label} at line ${lineNo}: expected a JSON object.`);
    throw new UsageError(`Invalid ${label} at line ${lineNo}: expected a JSON object, but the line is not JSON (${syntaxReason(error)}).${prettyPrintedHint(line)}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new UsageError(`Invalid ${label} at line ${lineNo}: expected a JSON object.`);
  }
  if (isLineTooDeep(line, value, maxDepth)) throw new UsageError(`Invalid ${label} at line ${lineNo}: ${TOO_DEEP}.`);
  return { value, lineNo };
}

/** The parser's reason, without the line it quotes (the error names the line already). */
function syntaxReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/, ".*" is not valid JSON$/s, '').replace(/^Unexpected end of JSON input$/, 'it ends too early');
}

/** A line that is only `{` or `[`: JSON pretty-printed over several lines, where one line per value is needed. */
function prettyPrintedHint(line: string): string {
  return /^\s*[[{]\s*$/.test(line) ? ' It looks like pretty-printed JSON: each event must be one line of compact JSON (jq -c).' : '';
}

/** The parse stage's step: each framed line as its JSON object (a line that is not one fails it, naming the line). */
export const parseStep = (label?: string, options: Omit<ParseOptions, 'maxDepth'> = {}): Step<Line, Parsed> => mapStep((line: Line) => parseLine(line, label, options));
