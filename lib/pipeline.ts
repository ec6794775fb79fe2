import { Readable, Writable, pipeline, type Duplex, type Transform } from 'node:stream';
import { agent, checkAgentOptions, type AgentOptions } from '../transforms/agent.js';
import { CancelledError, ZeroError, type CancelSignal } from './errors.js';
import type { SchemaVersion } from './protocol/types.js';
import { createLineFramer } from './protocol/lines.js';
import { validateStep } from './protocol/schema-version.js';
import { combineStep } from './protocol/combine.js';
import { conversationStep, failureAsItem } from './protocol/conversation.js';
import { parseStep } from './protocol/parse.js';
import { composeSteps, joinDuplex, stepStream } from './streams.js';
import { OUTPUT_CHAIN_OPTIONS, writeOut, type FailureHook, type OutputChainOptions } from './output-chain.js';
import { aFunction, aString, checkOptions, checkRequired, checkValue, kindOf, oneOf, positiveInteger, type Check } from './options.js';

/** The signals a run can be cancelled by (SIGPIPE: its reader went away); a plain-JS caller may pass anything. */
const CANCEL_SIGNALS: ReadonlySet<unknown> = new Set<CancelSignal>(['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGPIPE']);

const INPUT_CHAIN_OPTIONS = { maxLineBytes: positiveInteger, onSchemaVersion: aFunction };
const STAGES: Check = ['an array of Transform streams', (value) => Array.isArray(value) && value.every((stage) => typeof stage?.pipe === 'function')];

/** execChain's options, checked when it is made: its input, its output chain's, the agent's. */
function checkExecOptions(options: ExecOptions): void {
  checkRequired('execChain', checkOptions('execChain', options, { onFailure: aFunction, stages: STAGES }), ['input']);
  const { input } = options;
  checkOptions('execChain', input, INPUT_CHAIN_OPTIONS, 'options.input');
  checkValue('execChain', 'options.input.format', input.format, oneOf(['text', 'stream-json']));
  if (input.format === 'text') checkValue('execChain', 'options.input.prompt', input.prompt, aString);
  checkOptions('execChain', options.output, OUTPUT_CHAIN_OPTIONS, 'options.output');
  checkAgentOptions('execChain', options);
}

export { outputChain, reportEvents, reportFailure, type FailureHook, type OutputChainOptions, type Outcome } from './output-chain.js';

export type InputChainOptions = {
  maxLineBytes?: number;
  /** Told the input events' schema version as soon as it is known (the first line that has one). */
  onSchemaVersion?: (version: SchemaVersion) => void;
};

/** stream-json input bytes → one `{ prompt, images? }`: split → parse → validate(input) → combine. */
export function inputChain(given?: InputChainOptions): Duplex {
  const options = checkOptions('inputChain', given, INPUT_CHAIN_OPTIONS);
  const events = [createLineFramer(options), parseStep(undefined, { explainSyntax: true }), validateStep('input', { onSchemaVersion: options.onSchemaVersion, promptsOnly: true }), combineStep()];
  return stepStream(composeSteps(events), { writableObjectMode: false });
}

/**
 * --multi-turn: stream-json input bytes → a conversation's items as they come (a turn per message, interrupts,
 * permission responses): split → parse → validate(input) → conversation. Its failure is an item, not an error.
 */
export function conversationInputChain(options: InputChainOptions = {}): Duplex {
  const events = [createLineFramer(options), parseStep(), validateStep('input', { onSchemaVersion: options.onSchemaVersion }), conversationStep()];
  return stepStream(failureAsItem(composeSteps(events)), { writableObjectMode: false });
}

export type ExecInput = { format: 'text'; prompt: string } | ({ format: 'stream-json' } & InputChainOptions);

export type ExecOptions = Omit<AgentOptions, 'signal'> & {
  input: ExecInput;
  output?: OutputChainOptions;
  onFailure?: FailureHook;
  /** Object-mode stages placed between the agent and redaction (filters, taps, tests). */
  stages?: Transform[];
};

export type ExecChain = Duplex & {
  /** The exit code carried by the run's run_end, once the output has ended. */
  exitCode: Promise<number>;
  /**
   * Ends the run: a signal as cancelled (`error {code: "cancelled"}`, `run_end` 129 / 130 / 143), a ZeroError
   * as that error. Running tools are stopped; the output still ends with `error` + `run_end`.
   */
  cancel(reason: CancelSignal | ZeroError): void;
};

/**
 * The `zero exec` chain as one Duplex: stream-json input bytes in (ignored for
 * text input), output bytes out. Failures anywhere become `error` + `run_end`.
 */
export function execChain(options: ExecOptions): ExecChain {
  checkExecOptions(options);
  const { input, output = {}, onFailure, stages = [], ...agentOptions } = options;
  const controller = new AbortController();
  // Without a version asked for, the run answers in the version of its input events (docs/protocol.md §7), else 1.
  let inputVersion: SchemaVersion | undefined;
  const learnVersion = (version: SchemaVersion) => {
    inputVersion ??= version;
    if (input.format === 'stream-json') input.onSchemaVersion?.(version);
  };
  const schemaVersion = output.schemaVersion ?? (() => inputVersion ?? 1);
  const { head, writable } = promptSource(input.format === 'text' ? input : { ...input, onSchemaVersion: learnVersion }, agentOptions.multiTurn);
  const tail = pipeline([head, agent({ ...agentOptions, signal: controller.signal }), ...stages], () => {}) as unknown as Readable;
  const { readable, exitCode } = writeOut(tail, { ...output, schemaVersion, signal: controller.signal }, onFailure);
  const cancel = (reason: CancelSignal | ZeroError) => {
    // checked at the call: a signal name of another kind (SIGKILL, sigint) would end the run with no exit code
    if (!CANCEL_SIGNALS.has(reason) && !(reason instanceof ZeroError)) {
      throw new TypeError(`execChain: cancel takes 'SIGINT', 'SIGTERM', 'SIGHUP' or a ZeroError, not ${typeof reason === 'string' ? 'another string' : kindOf(reason)}.`);
    }
    if (!controller.signal.aborted) controller.abort(typeof reason === 'string' ? new CancelledError(reason) : reason);
  };
  // destroyed before its output ended (a program stopped reading it): the run is cancelled as one whose stdout reader
  // went away — its model call and tools stop — and its output runs on to its run_end unread, so the session has it
  const joined = joinDuplex(writable, readable, () => {
    if (readable.readableEnded) return;
    cancel('SIGPIPE');
    if (!writable.writableEnded) writable.end();
    readable.resume();
  });
  return Object.assign(joined, { exitCode, cancel });
}

/** Where the agent's `{ prompt }` (or conversation) comes from, and where the chain's input bytes go (nowhere, for text input). */
function promptSource(input: ExecInput, multiTurn = false): { head: Readable; writable: Writable } {
  if (input.format === 'text') {
    return { head: Readable.from([{ prompt: input.prompt }]), writable: new Writable({ write: (_chunk, _encoding, callback) => callback() }) };
  }
  const chain = multiTurn ? conversationInputChain(input) : inputChain(input);
  return { head: chain, writable: chain };
}
