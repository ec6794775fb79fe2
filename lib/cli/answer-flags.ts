import { resolve } from 'node:path';
import { describeErrno, UsageError, ZeroError } from '../errors.js';
import { answerSchema, strictProblem, DEFAULT_OUTPUT_RETRIES, type AnswerSchema } from '../agent/answer-schema.js';
import { readBounded } from '../files/bounded.js';
import { openStream } from '../files/open.js';
import type { ProviderChoice } from '../providers/index.js';
import { nonNegativeInteger } from './option-values.js';

/** --output-schema FILE and --output-retries N as commander hands them over. */
export type AnswerFlags = { outputSchema?: string; outputRetries?: string };

/** A schema is a small document: more than this is not one. */
const MAX_SCHEMA_BYTES = 1024 * 1024;

/** --output-schema read and compiled before the run (relative to cwd); every problem with it, or a lone --output-retries, a usage error. */
export async function readAnswerSchema(raw: AnswerFlags, cwd: string, signal?: AbortSignal): Promise<AnswerSchema | undefined> {
  const retries = nonNegativeInteger('--output-retries', raw.outputRetries);
  if (raw.outputSchema === undefined) {
    if (retries !== undefined) throw new UsageError('--output-retries needs --output-schema: only an answer with a schema is sent back.');
    return undefined;
  }
  const file = raw.outputSchema;
  const tooLong = () => new UsageError(`--output-schema ${file} is larger than ${MAX_SCHEMA_BYTES} bytes: it is not a schema.`);
  let text: string;
  try {
    text = (await readBounded(await openStream(resolve(cwd, file)), { maxBytes: MAX_SCHEMA_BYTES, tooLong, signal })).toString('utf8');
  } catch (error) {
    throw error instanceof ZeroError ? error : new UsageError(`Cannot read --output-schema ${file}: ${describeErrno(error as NodeJS.ErrnoException)}`);
  }
  return answerSchema(text, file, retries ?? DEFAULT_OUTPUT_RETRIES);
}

/** An OpenAI-compatible provider is asked for the schema strictly only when it meets the strict rules: else a warning says why not. */
export function answerWarnings(answer: AnswerSchema | undefined, choice: ProviderChoice): string[] {
  if (!answer || answer.strict || !choice.kind.startsWith('openai')) return [];
  return [`--output-schema is sent to ${choice.kind} without strict mode, so the API does not guarantee it (${strictProblem(answer.schema)}); the answer is still checked, and sent back when it does not conform.`];
}
