import type { SideEffect } from '../protocol/types.js';
import { compileChecker, typeOf, type Verdict } from '../protocol/validate.js';
import { applyPatch } from './apply_patch.js';
import { bash } from './bash.js';
import { editFile } from './edit_file.js';
import { glob } from './glob.js';
import { grep } from './grep.js';
import { listDirectory } from './list_directory.js';
import { capOutput } from './output.js';
import { readFile } from './read_file.js';
import { writeFile } from './write_file.js';
import type { Tool, ToolContext, ToolDefinition, ToolInvocation, ToolOutcome, ToolRunResult } from './types.js';

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
  /** Checks the arguments, runs the tool and caps its output; every failure becomes an error outcome. */
  run(call: ToolInvocation, context: ToolContext): Promise<ToolOutcome>;
};

export type ToolboxOptions = {
  /** Known tools that are not advertised and not run: a call gets this reason as its error result. */
  refusals?: ReadonlyMap<string, string>;
  /** The tools behind the refusals, so their side effect can still be reported. */
  known?: AnyTool[];
};

export function createToolbox(tools: AnyTool[] = readOnlyTools, options: ToolboxOptions = {}): Toolbox {
  const refusals = options.refusals ?? new Map<string, string>();
  const sideEffects = new Map([...(options.known ?? []), ...tools].map((tool) => [tool.name, tool.sideEffect]));
  const byName = new Map<string, { tool: AnyTool; check: (args: unknown) => Verdict<Record<string, unknown>> }>();
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new Error(`Two tools are named "${tool.name}".`);
    byName.set(tool.name, { tool, check: compileChecker(tool.parameters) });
  }
  const available = [...byName.keys()].sort().join(', ');

  return {
    definitions: () => tools.map(({ name, description, parameters }) => ({ name, description, parameters })),
    sideEffectOf: (name) => sideEffects.get(name) ?? 'unknown',
    async run(call, context) {
      const refusal = refusals.get(call.name);
      if (refusal) return failure(refusal);
      const entry = byName.get(call.name);
      if (!entry) return failure(`Unknown tool "${call.name}". Available tools: ${available}.`);
      const { tool, check } = entry;
      if (typeOf(call.args) !== 'object') {
        return failure(`Invalid arguments for ${tool.name}: expected a JSON object, received ${typeOf(call.args)}.`);
      }
      const verdict = check(call.args);
      if (!verdict.ok) return failure(`Invalid arguments for ${tool.name}: ${verdict.field}: ${verdict.problem}.`);
      try {
        const result = await tool.run(verdict.value, context);
        const { output, truncated } = typeof result === 'string' ? { output: result, truncated: false } : result;
        const capped = capOutput(output);
        return { status: 'ok', output: capped.output, truncated: truncated || capped.truncated };
      } catch (error) {
        return failure(error instanceof Error ? error.message : String(error));
      }
    },
  };
}

function failure(message: string): ToolOutcome {
  return { status: 'error', ...capOutput(message) };
}
