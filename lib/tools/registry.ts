import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { SideEffect } from '../protocol/types.js';
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
  const ajv = new Ajv({ allErrors: false });
  const byName = new Map<string, { tool: Tool; validate: ValidateFunction }>();
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new Error(`Two tools are named "${tool.name}".`);
    byName.set(tool.name, { tool, validate: ajv.compile(tool.parameters) });
  }
  const available = [...byName.keys()].sort().join(', ');

  return {
    definitions: () => tools.map(({ name, description, parameters }) => ({ name, description, parameters })),
    sideEffectOf: (name) => byName.get(name)?.tool.sideEffect ?? 'unknown',
    async run(call, context) {
      const entry = byName.get(call.name);
      if (!entry) return failure(`Unknown tool "${call.name}". Available tools: ${available}.`);
      const { tool, validate } = entry;
      if (typeOf(call.args) !== 'object') {
        return failure(`Invalid arguments for ${tool.name}: expected a JSON object, received ${typeOf(call.args)}.`);
      }
      if (!validate(call.args)) {
        return failure(`Invalid arguments for ${tool.name}: ${describeProblem(validate.errors?.[0], call.args)}.`);
      }
      try {
        return { status: 'ok', ...capOutput(await tool.run(call.args as Record<string, unknown>, context)) };
      } catch (error) {
        return failure(error instanceof Error ? error.message : String(error));
      }
    },
  };
}

function failure(message: string): ToolOutcome {
  return { status: 'error', ...capOutput(message) };
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** The first schema violation, worded for the model: which field, and what is wrong with it. */
function describeProblem(error: ErrorObject | undefined, args: unknown): string {
  if (!error) return 'they do not match the schema';
  const params = error.params as Record<string, unknown>;
  const keys = error.instancePath.split('/').slice(1);
  const field = keys.join('.');
  const value = keys.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], args);
  switch (error.keyword) {
    case 'required':
      return `field "${params.missingProperty}" is required`;
    case 'additionalProperties':
      return `field "${params.additionalProperty}" is not recognized`;
    case 'type':
      return `field "${field}" must be ${params.type}, received ${typeof value === 'number' ? `number ${value}` : typeOf(value)}`;
    case 'minimum':
      return `field "${field}" must be at least ${params.limit}, received ${value}`;
    case 'minLength':
      return `field "${field}" must not be empty`;
    default:
      return `field "${field}" ${error.message ?? 'is invalid'}`;
  }
}
