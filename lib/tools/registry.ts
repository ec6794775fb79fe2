import { checkValue, type Check } from '../options.js';
import { SandboxError } from '../errors.js';
import type { PermissionMode, SideEffect } from '../protocol/types.js';
import { compileChecker, typeOf, type Verdict } from '../protocol/validate.js';
import { applyPatch } from './apply_patch.js';
import { bash, createBash } from './bash.js';
import { editFile } from './edit_file.js';
import { glob } from './glob.js';
import { grep } from './grep.js';
import { listDirectory } from './list_directory.js';
import { capOutput, TruncatedFailure } from './output.js';
import { realpath } from 'node:fs/promises';
import { isProtectedPath, protectedWriteReason, type ToolPlan } from './permissions.js';
import type { ShellPolicy } from './shell_sandbox.js';
import { readFile } from './read_file.js';
import { writeFile } from './write_file.js';
import type { ToolDefinition } from '../protocol/chat.js';
import type { Tool, ToolContext, ToolInvocation, ToolOutcome, ToolRunResult } from './types.js';

/** Any tool, whatever its arguments and however it reports its output. */
export type AnyTool = Tool<any, ToolRunResult>;

/** The tools that only look: safe to run without asking. */
export const readOnlyTools: AnyTool[] = [readFile, listDirectory, glob, grep];

/** Every tool this version has; which of them a run may use is decided by the permission plan. */
export const allTools: AnyTool[] = [...readOnlyTools, writeFile, editFile, applyPatch, bash];

export type Toolbox = {
  /** What the model is told about each tool. */
  definitions(): ToolDefinition[];
  sideEffectOf(name: string): SideEffect;
  /** The tool's permission (`allow`, `prompt`), `unknown` for a name this version lacks. */
  permissionOf(name: string): string;
  /** Before a call runs: whether it runs as planned, is auto-allowed (with its reason), waits for the client's answer, or is refused for want of a permission. */
  gate(call: ToolInvocation, context: ToolContext): Promise<Gate>;
  /** What permission events report as the run's mode. */
  readonly permissionMode: PermissionMode;
  /** A `warning` to write before the first call of this tool in the run (which sandbox a command runs in), once. */
  notice(name: string): string | undefined;
  /** The files the call would change, for the checkpoint before it runs: none unless it will run and can tell. */
  targets(call: ToolInvocation, context: ToolContext): Promise<string[]>;
  /** Checks the arguments, runs the tool and caps its output; every failure becomes an error outcome. */
  run(call: ToolInvocation, context: ToolContext): Promise<ToolOutcome>;
};

/**
 * `run`: as the plan says (run() reports any error); `auto`: a `prompt` tool --auto low or medium allows, its
 * permission_decision giving `reason`; `ask`: wait for the client (--permission-prompt stdio); `refuse`: not
 * without a permission.
 */
export type Gate = { kind: 'run' } | { kind: 'auto'; reason: string } | { kind: 'ask' } | { kind: 'refuse'; reason: string };

export type ToolboxOptions = {
  /** Known tools that are not advertised and not run: a call gets this reason as its error result. */
  refusals?: ReadonlyMap<string, string>;
  /** Those of the refusals that are for want of a permission (the outcome carries a Refusal). */
  needPermission?: ReadonlySet<string>;
  /** The tools behind the refusals, so their side effect can still be reported. */
  known?: AnyTool[];
  /** Default `auto`. */
  permissionMode?: PermissionMode;
  /** Tools whose calls wait for the client's permission (see Toolbox.gate). */
  askFirst?: ReadonlySet<string>;
  /** Tools --auto low and medium allow without asking, with the reason (see Toolbox.gate). */
  autoAllowed?: ReadonlyMap<string, string>;
  /** Warnings for the first call of a tool (see Toolbox.notice). */
  notices?: ReadonlyMap<string, string>;
};

/** What createToolbox takes: tools as lib/tools/types.ts has them (a name, a JSON Schema of parameters, a run function). */
const TOOLS: Check = [
  'an array of tools (each an object with a name, parameters and a run function)',
  (value) =>
    Array.isArray(value) &&
    value.every((tool: Partial<AnyTool> | null) => typeof tool?.name === 'string' && typeof tool.parameters === 'object' && tool.parameters !== null && typeof tool.run === 'function'),
];

/**
 * The toolbox a permission plan allows (planTools over allTools and the run's MCP tools); bash runs its commands
 * under `shell` when given, and its first call is preceded by `shellNotice`.
 */
export function toolboxFor(plan: ToolPlan, shell?: ShellPolicy, shellNotice?: string, mcpTools: AnyTool[] = []): Toolbox {
  const tools = plan.advertised.map((tool) => (tool.name === bash.name && shell ? createBash(shell) : tool));
  const { refusals, needPermission, askFirst, autoAllowed, permissionMode } = plan;
  const notices = new Map(shellNotice ? [[bash.name, shellNotice]] : []);
  return createToolbox(tools, { refusals, needPermission, askFirst, autoAllowed, notices, known: [...allTools, ...mcpTools], permissionMode });
}

export function createToolbox(tools: AnyTool[] = readOnlyTools, options: ToolboxOptions = {}): Toolbox {
  checkValue('createToolbox', 'tools', tools, TOOLS);
  const refusals = options.refusals ?? new Map<string, string>();
  const knownTools = new Map([...(options.known ?? []), ...tools].map((tool) => [tool.name, tool]));
  const byName = new Map<string, { tool: AnyTool; check: (args: unknown) => Verdict<Record<string, unknown>> }>();
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new Error(`Two tools are named "${tool.name}".`);
    byName.set(tool.name, { tool, check: compileChecker(tool.parameters) });
  }
  const available = [...byName.keys()].sort().join(', ');
  const notices = new Map(options.notices);

  /** The tool and its checked arguments, or the error outcome of a call that cannot run. */
  const prepare = (call: ToolInvocation): { tool: AnyTool; args: Record<string, unknown> } | ToolOutcome => {
    const refusal = refusals.get(call.name);
    if (refusal) return options.needPermission?.has(call.name) ? { ...failure(refusal), refusal: { reason: refusal } } : failure(refusal);
    const entry = byName.get(call.name);
    if (!entry) return failure(`Unknown tool "${call.name}". Available tools: ${available}.`);
    const { tool, check } = entry;
    if (typeOf(call.args) !== 'object') {
      return failure(`Invalid arguments for ${tool.name}: expected a JSON object, received ${typeOf(call.args)}.`);
    }
    const verdict = check(call.args);
    if (!verdict.ok) return failure(`Invalid arguments for ${tool.name}: ${verdict.field}: ${verdict.problem}.`);
    return { tool, args: verdict.value };
  };

  return {
    definitions: () => tools.map(({ name, description, parameters }) => ({ name, description, parameters })),
    sideEffectOf: (name) => knownTools.get(name)?.sideEffect ?? 'unknown',
    permissionOf: (name) => knownTools.get(name)?.permission ?? 'unknown',
    permissionMode: options.permissionMode ?? 'auto',
    notice(name) {
      const notice = notices.get(name);
      notices.delete(name);
      return notice;
    },
    async gate(call, context) {
      const prepared = prepare(call);
      if ('status' in prepared) return { kind: 'run' };
      const { tool, args } = prepared;
      const asks = Boolean(options.askFirst?.has(tool.name));
      const auto = options.autoAllowed?.get(tool.name);
      if (!auto) return asks ? { kind: 'ask' } : { kind: 'run' };
      if (tool.sideEffect !== 'write' || !tool.targets) return { kind: 'auto', reason: auto };
      // A path the path sandbox refuses is refused when the call runs, with its block, as for any write.
      const files = await tool.targets(args, context).catch(() => undefined);
      if (!files) return { kind: 'run' };
      const roots = await Promise.all((context.extraRoots ?? []).map((root) => realpath(root).catch(() => root)));
      const kept = files.find((file) => isProtectedPath(file, roots));
      if (kept === undefined) return { kind: 'auto', reason: auto };
      return asks ? { kind: 'ask' } : { kind: 'refuse', reason: protectedWriteReason(tool.name, kept) };
    },
    async targets(call, context) {
      const prepared = prepare(call);
      if ('status' in prepared || !prepared.tool.targets) return [];
      // try, not .catch: a tool whose targets throws before it returns a promise must not end the run either.
      try {
        return await prepared.tool.targets(prepared.args, context);
      } catch {
        return [];
      }
    },
    async run(call, context) {
      const prepared = prepare(call);
      if ('status' in prepared) return prepared;
      const { tool, args } = prepared;
      try {
        const result = await tool.run(args, context);
        const { output, truncated = false, changedFiles = [] } = typeof result === 'string' ? { output: result } : result;
        const capped = capOutput(output);
        return { status: 'ok', output: capped.output, truncated: truncated || capped.truncated, ...(changedFiles.length ? { changedFiles } : {}) };
      } catch (error) {
        if (error instanceof SandboxError) return sandboxRefusal(tool, error);
        if (error instanceof TruncatedFailure) return { ...failure(error.message), truncated: true };
        return failure(error instanceof Error ? error.message : String(error));
      }
    },
  };
}

function failure(message: string): ToolOutcome {
  return { status: 'error', ...capOutput(message) };
}

/** The sandbox refused a path the call named: an error result as any other, and a Refusal with its block. */
function sandboxRefusal(tool: AnyTool, error: SandboxError): ToolOutcome {
  const { block: code, path, message: reason, recoverable } = error;
  return { ...failure(reason), refusal: { reason, block: { code, toolName: tool.name, action: 'deny', path, reason, recoverable } } };
}
