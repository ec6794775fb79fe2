import type { Duplex } from 'node:stream';
import { createAgentRun, type AgentOptions } from '../lib/agent/run.js';
import { exchangeStream } from '../lib/exchange-stream.js';
import { aBoolean, anAbortSignal, anAbsolutePath, aName, aProvider, checkOptions, checkRequired, positiveInteger, positiveNumber, strings } from '../lib/options.js';

const AGENT_OPTIONS = {
  provider: aProvider,
  cwd: anAbsolutePath,
  maxTurns: positiveInteger,
  sessionId: aName,
  extraRoots: strings,
  warnings: strings,
  signal: anAbortSignal,
  multiTurn: aBoolean,
  askPermissions: aBoolean,
  permissionTimeoutMs: positiveNumber,
  spoolAfterChars: positiveInteger,
};

/** The agent's options, checked when a stage is made (`factory`: the one its caller called). */
export function checkAgentOptions(factory: string, options: AgentOptions): void {
  checkRequired(factory, checkOptions(factory, options, AGENT_OPTIONS), ['provider', 'cwd']);
}

export { DEFAULT_MAX_TURNS, type AgentOptions } from '../lib/agent/run.js';

/**
 * `{ prompt, images }` (or, with multiTurn, a conversation's items) → unstamped output events: run_start, warnings,
 * then the agent loop's events (lib/agent/run.ts). Each event is made when the reader pulls it, so the loop (and the
 * provider behind it) stops while downstream is full; a failure never drops an event already produced.
 */
export function agent(options: AgentOptions): Duplex {
  checkAgentOptions('agent', options);
  return exchangeStream(createAgentRun(options), { unheld: options.signal });
}
