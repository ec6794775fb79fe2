import { ProviderError } from '../errors.js';
import { kindOf } from '../options.js';

/**
 * The fields of a streamed chunk, read as the provider's wire format has them. The SDKs type a chunk but do not
 * check it: a server that sends `"content": 5` or `"prompt_tokens": "lots"` would have made zero crash further on, or
 * write events its own schema refuses. A field of another type is a malformed chunk instead (a ProviderError, exit
 * 3) that names the field and what it is, never its value. An absent field, or null, reads as undefined.
 */
export type WireReader = {
  /** An object; `required`: absent or null is malformed too (a chunk itself). */
  object(value: unknown, where: string, required?: boolean): Record<string, unknown> | undefined;
  /** A list; absent reads as empty. */
  list(value: unknown, where: string): unknown[];
  text(value: unknown, where: string): string | undefined;
  /** A token count: a whole number, 0 or more. */
  count(value: unknown, where: string): number | undefined;
};

export function wireReader(provider: string): WireReader {
  const read =
    <T>(expected: string, test: (value: unknown) => boolean) =>
    (value: unknown, where: string, required = false): T | undefined => {
      if ((value === undefined || value === null) && !required) return undefined;
      if (value === undefined || value === null || !test(value)) throw new ProviderError(`${provider} sent a malformed stream chunk: ${where} is ${kindOf(value)}, not ${expected}.`);
      return value as T;
    };
  const object = read<Record<string, unknown>>('an object', (value) => typeof value === 'object' && !Array.isArray(value));
  const list = read<unknown[]>('a list', Array.isArray);
  return {
    object,
    list: (value, where) => list(value, where) ?? [],
    text: read<string>('a string', (value) => typeof value === 'string'),
    count: read<number>('a whole number, 0 or more', (value) => Number.isSafeInteger(value) && (value as number) >= 0),
  };
}
