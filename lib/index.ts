/** zero-stream: every stage of `zero exec` and the chains built from them, for embedding in Node programs. */
export { split } from '../transforms/split.js';
export { parse } from '../transforms/parse.js';
export { validate } from '../transforms/validate.js';
export { combine } from '../transforms/combine.js';
export { agent, DEFAULT_MAX_TURNS, type AgentOptions } from '../transforms/agent.js';
export { redact, type RedactOptions } from '../transforms/redact.js';
export { stamp } from '../transforms/stamp.js';
export { serialize, OUTPUT_FORMATS, type OutputFormat, type SerializeOptions } from '../transforms/serialize.js';
export {
  execChain,
  inputChain,
  outputChain,
  reportFailure,
  type ExecChain,
  type ExecInput,
  type ExecOptions,
  type InputChainOptions,
  type OutputChainOptions,
} from './pipeline.js';
export { redactLogChain, validateLogChain, statsChain, replayChain, renderChain, type LogChainOptions, type ReplayChainOptions } from './log-chains.js';
export type { Framing } from './logs/framing.js';
export type { LogSummary } from './logs/validate.js';
export type { RunPick } from './logs/replay.js';
export type { RenderFormat } from './render/format.js';
export { visible } from './output/visible.js';
export { TextSpool, SPOOL_AFTER_CHARS } from './files/text-spool.js';
export * from './errors.js';
export * from './protocol/types.js';
export { newRunId, newSessionId, isId, ID_PATTERN, RUN_ID_PATTERN, SESSION_ID_PATTERN } from './protocol/ids.js';
export { schemaPath, loadSchema, type SchemaKind } from './protocol/schemas.js';
export { checkAgainstSchema, validateParsed, type Verdict } from './protocol/validate.js';
export { redactText, redactValue, redactEvent, isSensitiveKey, REDACTED } from './redaction/index.js';
export { ScriptedProvider, loadScript, type ScriptTurn } from './providers/scripted.js';
export { createProvider, type ProviderSettings } from './providers/index.js';
export type { Provider, ProviderChunk, TurnRequest } from './providers/types.js';
export type { ChatMessage, ToolCallRequest, ToolDefinition } from './protocol/chat.js';
export { createToolbox, readOnlyTools, type Toolbox } from './tools/registry.js';
export type { Tool, ToolContext, ToolOutcome } from './tools/types.js';
