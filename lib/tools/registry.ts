import type { SideEffect } from '../protocol/types.js';
import { compileChecker, typeOf, type Verdict } from '../protocol/validate.js';
import { glob } from './glob.js';
import { grep } from './grep.js';
import { listDirectory } from './list_directory.js';
import { capOutput } from './output.js';
import { readFile } from './read_file.js';
import type { Tool, ToolContext, ToolDefinition, ToolInvocation, ToolOutcome } from './types.js';

/** The tools that only look: safe to run without asking. */
export const readOnlyTools: Tool[] = [readFile, listDirectory, glob, grep];

export type Toolbox = {
  /** What the model is told about each tool. */
  definitions(): ToolDefinition[];
  sideEffectOf(name: string): SideEffect;
  /** Checks the arguments, runs the tool and caps its output; every failure becomes an error outcome. */
  run(call: ToolInvocation, context: ToolContext): Promise<ToolOutcome>;
};

export function createToolbox(tools: Tool[] = readOnlyTools): Toolbox {
  const byName = new Map<string, { tool: Tool; check: (args: unknown) => Verdict<Record<string, unknown>> }>();
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new Error(`Two tools are named "${tool.name}".`);
    byName.set(tool.name, { tool, check: compileChecker(tool.parameters) });
  }
  const available = [...byName.keys()].sort().join(', ');

  return {
    definitions: () => tools.map(({ name, description, parameters }) => ({ name, description, parameters })),
    sideEffectOf: (name) => byName.get(name)?.tool.sideEffect ?? 'unknown',
    async run(call, context) {
      const entry = byName.get(call.name);
      if (!entry) return failure(`Unknown tool "${call.name}". Available tools: ${available}.`);
      const { tool, check } = entry;
      if (typeOf(call.args) !== 'object') {
        return failure(`Invalid arguments for ${tool.name}: expected a JSON object, received ${typeOf(call.args)}.`);
      }
      const verdict = check(call.args);
      if (!verdict.ok) return failure(`Invalid arguments for ${tool.name}: ${verdict.field}: ${verdict.problem}.`);
      try {
        return { status: 'ok', ...capOutput(await tool.run(verdict.value, context)) };
      } catch (error) {
        return failure(error instanceof Error ? error.message : String(error));
      }
    },
  };
}

function failure(message: string): ToolOutcome {
  return { status: 'error', ...capOutput(message) };
}
