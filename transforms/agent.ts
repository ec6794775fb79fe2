import type { Duplex } from 'node:stream';
import { createAgentRun, type AgentOptions } from '../lib/agent/run.js';
import { exchangeStream } from '../lib/exchange-stream.js';

export { DEFAULT_MAX_TURNS, type AgentOptions } from '../lib/agent/run.js';

/**
 * `{ prompt, images }` (or, with multiTurn, a conversation's items) → unstamped output events: run_start, warnings,
 * then the agent loop's events (lib/agent/run.ts). Each event is made when the reader pulls it, so the loop (and the
 * provider behind it) stops while downstream is full; a failure never drops an event already produced.
 */
export function agent(options: AgentOptions): Duplex {
  return exchangeStream(createAgentRun(options), { unheld: options.signal });
}
