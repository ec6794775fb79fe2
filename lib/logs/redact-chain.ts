import type { Duplex } from 'node:stream';
import { checkLogChainOptions, logChain, type LogChainOptions } from './chain.js';
import { createLogLineFramer } from './framing.js';
import { createLogRedactor } from './redact.js';

/** `zero redact`: frame → redact → the same log, secrets replaced, clean lines as they came. */
export function redactLogChain(given?: LogChainOptions): Duplex {
  const options = checkLogChainOptions('redactLogChain', given);
  // the redactor parses only the lines it must: a clean line goes out as it came
  return logChain(options, () => [createLogRedactor(options.redaction)], false, () => createLogLineFramer(options.framing, { maxLineBytes: options.maxLineBytes }));
}
