import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { choice, nonNegativeInteger, positiveInteger, seconds } from './option-values.js';
import { OUTPUT_FORMATS, type OutputFormat } from '../output/serializer.js';
import { AUTO_LEVELS, parseToolNames, type PermissionSettings } from '../tools/permissions.js';
import { SCHEMA_VERSIONS, type SchemaVersion } from '../protocol/types.js';
import type { Labels } from '../sessions/store.js';
import { compatSettings, type CompatFlags } from './compat.js';
import { noSessionSource, reclaimPrompt, sessionChoice, sessionLabels, type SessionChoice, type SessionFlags } from './session-flags.js';
import { worktreeRequest, type WorktreeFlags, type WorktreeRequest } from './worktree.js';
import type { ReasoningEffort } from '../providers/types.js';
import { limitSettings, type LimitFlags, type LimitSettings } from './limit-flags.js';
import type { AnswerFlags } from './answer-flags.js';
import type { RawMcpOptions } from './mcp-setup.js';

export const INPUT_FORMATS = ['text', 'stream-json'] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];

/** `-f -`: the prompt (or the JSONL input) is read from stdin, as `-` means for cat and rg. */
export const STDIN = '-';

/** The exec flags as commander hands them over: strings, unchecked. */
export type RawExecOptions = CompatFlags & SessionFlags & WorktreeFlags & LimitFlags & AnswerFlags & RawMcpOptions & {
  inputFormat?: string;
  outputFormat?: string;
  file?: string;
  model?: string;
  provider?: string;
  /** --profile NAME: a config profile, as --provider NAME. */
  profile?: string;
  script?: string;
  cwd?: string;
  maxTurns?: string;
  maxLineBytes?: string;
  maxRetries?: string;
  timeout?: string;
  idleTimeout?: string;
  debug?: boolean;
  auto?: string;
  skipPermissionsUnsafe?: boolean;
  enabledTools?: string[];
  disabledTools?: string[];
  addDir?: string[];
  listTools?: boolean;
  /** --no-notify: accepted for wrappers that pass it; headless runs have nothing to notify. */
  notify?: boolean;
  maxContextChars?: string;
  schemaVersion?: string;
  reasoningBudget?: string;
  reasoningEffort?: string;
  multiTurn?: boolean;
  permissionPrompt?: string;
  permissionTimeout?: string;
  heartbeat?: string;
  /** -p/--prompt (repeatable): prompt text, before the positional words. */
  prompt?: string[];
  /** --sandbox, --sandbox-network, --env-pass: read by lib/cli/shell-settings.ts. */
  sandbox?: string;
  sandboxNetwork?: boolean;
  envPass?: string[];
};

export const PERMISSION_PROMPTS = ['none', 'stdio'] as const;
export type PermissionPrompt = (typeof PERMISSION_PROMPTS)[number];

export type ExecSettings = {
  inputFormat: InputFormat;
  outputFormat: OutputFormat;
  words: string[];
  /** Absolute (--file resolved against cwd), or `-` for stdin. */
  file?: string;
  cwd: string;
  model?: string;
  provider?: string;
  script?: string;
  maxTurns?: number;
  maxLineBytes?: number;
  maxRetries?: number;
  timeoutMs?: number;
  idleTimeoutMs?: number;
  permissions: PermissionSettings;
  /** --add-dir: absolute, existing directories write tools may also change. */
  extraRoots: string[];
  listTools: boolean;
  /** --resume / --fork: which session the run continues; undefined for a new one. */
  session?: SessionChoice;
  /** --no-session or ZERO_NO_SESSION=1: the run is not recorded, nothing is written to disk. */
  noSession: boolean;
  maxContextChars?: number;
  /** --schema-version, else ZERO_SCHEMA_VERSION; undefined: the input events' version, else 1 (docs/protocol.md §7). */
  schemaVersion?: SchemaVersion;
  /** --reasoning-budget: tokens Anthropic's extended thinking may spend; off when undefined. */
  reasoningBudget?: number;
  /** -r/--reasoning-effort: OpenAI's reasoning_effort; for Anthropic a thinking budget (--reasoning-budget wins). */
  reasoningEffort?: ReasoningEffort;
  /** --multi-turn: every input message is a user turn of one conversation, answered as it comes (README: Conversations). */
  multiTurn: boolean;
  /** --permission-prompt: `stdio` asks the client for each call that needs a permission (a permission_request it answers on stdin). */
  permissionPrompt: PermissionPrompt;
  /** --permission-timeout: how long a permission_request waits for its answer before the call is denied (default 300 s). */
  permissionTimeoutMs?: number;
  /** --heartbeat: a `heartbeat` event when nothing else was written for this long (stream-json only). */
  heartbeatMs?: number;
  /** --worktree: the run works in a git worktree of cwd's repository (lib/cli/worktree.ts). */
  worktree?: WorktreeRequest;
  /** --init-session-id, --session-title, --tag: what the new session (or fork) is called. */
  labels: Labels;
  /** Zero's flags that do less here, each with a warning that says what (lib/cli/compat.ts). */
  warnings: string[];
  /** --max-budget-usd, --max-tool-calls, --run-timeout (lib/cli/limit-flags.ts). */
  limits: LimitSettings;
};

function directory(value: string, what = 'Working directory', base = '.'): string {
  const dir = resolve(base, value);
  let isDirectory = false;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch {
    throw new UsageError(`${what} not found: ${value}`);
  }
  if (!isDirectory) throw new UsageError(`${what} is not a directory: ${value}`);
  return dir;
}

/** The value of a flag in argv (`--flag V`, `--flag=V`, or `-xV` / `-x V` for its short form): the last one given. */
function flagValue(argv: string[], long: string, short?: string): string | undefined {
  let value: string | undefined;
  argv.forEach((arg, index) => {
    if (arg === long || (short && arg === short)) value = argv[index + 1] ?? value;
    else if (arg.startsWith(`${long}=`)) value = arg.slice(long.length + 1);
    else if (short && arg.startsWith(short) && arg.length > short.length && !arg.startsWith('--')) value = arg.slice(short.length);
  });
  return value;
}

function schemaVersionValue(source: string, value: string): SchemaVersion {
  const version = Number(value.trim());
  if (/^\s*\d\s*$/.test(value) && (SCHEMA_VERSIONS as readonly number[]).includes(version)) return version as SchemaVersion;
  throw new UsageError(`Invalid value for ${source}: "${value}". Expected one of: ${SCHEMA_VERSIONS.join(', ')}.`);
}

/** --schema-version, else ZERO_SCHEMA_VERSION (an empty one counts as unset); undefined when neither is given. */
function schemaVersionSetting(flag: string | undefined, env: NodeJS.ProcessEnv): SchemaVersion | undefined {
  if (flag !== undefined) return schemaVersionValue('--schema-version', flag);
  const fromEnv = env.ZERO_SCHEMA_VERSION;
  return fromEnv?.trim() ? schemaVersionValue('ZERO_SCHEMA_VERSION', fromEnv) : undefined;
}

/** The schema version asked for, even when argv is broken, so a usage error can be reported in it; undefined when none can be read. */
export function schemaVersionFromArgv(argv: string[], env: NodeJS.ProcessEnv = {}): SchemaVersion | undefined {
  try {
    return schemaVersionSetting(flagValue(argv, '--schema-version'), env);
  } catch {
    return undefined;
  }
}

/** Anthropic refuses a thinking budget under 1024 tokens. */
export const MIN_REASONING_BUDGET = 1024;

function reasoningBudget(value: string | undefined): number | undefined {
  const budget = positiveInteger('--reasoning-budget', value);
  if (budget !== undefined && budget < MIN_REASONING_BUDGET) {
    throw new UsageError(`Invalid value for --reasoning-budget: "${value}". Expected at least ${MIN_REASONING_BUDGET} tokens (the smallest thinking budget Anthropic accepts).`);
  }
  return budget;
}

/** -r/--reasoning-effort: the levels Zero passes on (OpenAI's reasoning_effort values). */
export const REASONING_EFFORTS = ['minimal', 'low', 'medium', 'high'] as const satisfies readonly ReasoningEffort[];

/** --provider or --profile (the same setting, for Zero's users who pass --profile); two different names are a contradiction. */
function providerName(raw: RawExecOptions): string | undefined {
  if (raw.provider !== undefined && raw.profile !== undefined && raw.provider !== raw.profile) {
    throw new UsageError(`--provider ${raw.provider} and --profile ${raw.profile} name different providers: give one of them.`);
  }
  return raw.provider ?? raw.profile;
}

/** The output format asked for, even when the rest of argv is broken, so a usage error can be reported in it. */
export function outputFormatFromArgv(argv: string[]): OutputFormat {
  const format = (flagValue(argv, '--output-format', '-o') ?? 'text').toLowerCase();
  return (OUTPUT_FORMATS as readonly string[]).includes(format) ? (format as OutputFormat) : 'text';
}

/** The turn limit of the command line: --max-turns, else a --mode's, else ZERO_MAX_TURNS (Zero's order); the config files' comes after. */
function maxTurnsSetting(raw: RawExecOptions, mode: number | undefined, env: NodeJS.ProcessEnv): number | undefined {
  const fromEnv = env.ZERO_MAX_TURNS?.trim() ? env.ZERO_MAX_TURNS : undefined;
  return positiveInteger('--max-turns', raw.maxTurns) ?? mode ?? positiveInteger('ZERO_MAX_TURNS', fromEnv);
}

/** --auto, checked even beside --skip-permissions-unsafe, which wins over any valid level (as in Zero). */
function autoLevel(raw: RawExecOptions): PermissionSettings['auto'] {
  if (raw.auto === undefined) return undefined;
  return choice('--auto', raw.auto, AUTO_LEVELS);
}

/** An empty value (`--add-dir ''`) would mean the working directory: refused, it is a mistake in a script. */
function nonEmpty(flag: string, value: string): string {
  if (value.trim() === '') throw new UsageError(`Invalid value for ${flag}: "${value}". Expected a directory.`);
  return value;
}

/**
 * --multi-turn reads a conversation of JSONL events; --permission-prompt stdio asks on stdout and is answered on
 * stdin within that conversation (in either schema version); --heartbeat is a stream-json line.
 */
function conversationSettings(raw: RawExecOptions, inputFormat: InputFormat, outputFormat: OutputFormat) {
  const multiTurn = Boolean(raw.multiTurn);
  const permissionPrompt = choice('--permission-prompt', raw.permissionPrompt ?? 'none', PERMISSION_PROMPTS);
  if (multiTurn && inputFormat !== 'stream-json') throw new UsageError('--multi-turn needs --input-format stream-json: the turns of a conversation are JSONL input events.');
  if (permissionPrompt === 'stdio' && (!multiTurn || outputFormat !== 'stream-json')) {
    throw new UsageError('--permission-prompt stdio needs --multi-turn and --output-format stream-json: requests are events on stdout, answered by permission_response events on stdin.');
  }
  const permissionTimeoutMs = seconds('--permission-timeout', raw.permissionTimeout);
  if (permissionTimeoutMs !== undefined && permissionPrompt !== 'stdio') throw new UsageError('--permission-timeout needs --permission-prompt stdio: only then does a call wait for an answer.');
  const heartbeatMs = seconds('--heartbeat', raw.heartbeat);
  if (heartbeatMs !== undefined && outputFormat !== 'stream-json') throw new UsageError('--heartbeat needs --output-format stream-json: json and text have no heartbeat line.');
  return { multiTurn, permissionPrompt, permissionTimeoutMs, heartbeatMs };
}

/** Checks every exec flag; the first bad one is a UsageError (exit 2). */
export function execSettings(givenWords: string[], givenRaw: RawExecOptions, env: NodeJS.ProcessEnv = {}): ExecSettings {
  const [words, raw] = reclaimPrompt<RawExecOptions>([...(givenRaw.prompt ?? []), ...givenWords], givenRaw, env);
  const compat = compatSettings(raw);
  const noSession = noSessionSource(raw, env);
  const outputFormat = choice('--output-format', raw.outputFormat ?? 'text', OUTPUT_FORMATS);
  const inputFormat = choice('--input-format', raw.inputFormat ?? 'text', INPUT_FORMATS);
  const cwd = directory(raw.cwd ?? '.');
  const conversation = conversationSettings(raw, inputFormat, outputFormat);
  return {
    inputFormat,
    outputFormat,
    words,
    cwd,
    file: raw.file === undefined || raw.file === STDIN ? raw.file : resolve(cwd, raw.file),
    model: raw.model,
    provider: providerName(raw),
    script: raw.script,
    maxTurns: maxTurnsSetting(raw, compat.maxTurns, env),
    maxLineBytes: positiveInteger('--max-line-bytes', raw.maxLineBytes),
    maxRetries: nonNegativeInteger('--max-retries', raw.maxRetries),
    timeoutMs: seconds('--timeout', raw.timeout),
    idleTimeoutMs: seconds('--idle-timeout', raw.idleTimeout),
    permissions: {
      auto: autoLevel(raw),
      skipPermissionsUnsafe: Boolean(raw.skipPermissionsUnsafe),
      enabled: parseToolNames('--enabled-tools', raw.enabledTools),
      disabled: parseToolNames('--disabled-tools', raw.disabledTools),
      ask: conversation.permissionPrompt === 'stdio',
    },
    extraRoots: (raw.addDir ?? []).map((dir) => directory(nonEmpty('--add-dir', dir), '--add-dir directory', cwd)),
    listTools: Boolean(raw.listTools),
    session: sessionChoice(raw, noSession),
    noSession: noSession !== undefined,
    maxContextChars: positiveInteger('--max-context-chars', raw.maxContextChars),
    schemaVersion: schemaVersionSetting(raw.schemaVersion, env),
    reasoningBudget: reasoningBudget(raw.reasoningBudget),
    reasoningEffort: raw.reasoningEffort === undefined ? undefined : choice('--reasoning-effort', raw.reasoningEffort, REASONING_EFFORTS),
    ...conversation,
    worktree: worktreeRequest(raw),
    labels: sessionLabels(raw, noSession),
    warnings: compat.warnings,
    limits: limitSettings(raw),
  };
}
