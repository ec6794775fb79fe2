import { createHash } from 'node:crypto';
import type { Tool as ServerTool } from '@modelcontextprotocol/sdk/types.js';
import { compileChecker } from '../protocol/validate.js';
import type { SideEffect } from '../protocol/types.js';
import type { AnyTool } from '../tools/registry.js';
import type { McpConnection } from './client.js';
import { resultText } from './result.js';

/** Zero's rule for a part of a tool's name: lower case, every run of other characters than [a-z0-9_] one `_`, trimmed of `_`. */
function namePart(value: string, fallback: string): string {
  return value.trim().toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '') || fallback;
}

/** The longest tool name the providers take (OpenAI's and Anthropic's `^[a-zA-Z0-9_-]{1,64}$`). */
const MAX_TOOL_NAME = 64;

/**
 * `mcp_<server>_<tool>`, as Zero names them; past 64 characters, cut and ended with a hash of the whole name (a
 * longer one made every model request of the run fail, the server's tools or not).
 */
export function mcpToolName(server: string, tool: string): string {
  const name = `mcp_${namePart(server, 'server')}_${namePart(tool, 'tool')}`;
  if (name.length <= MAX_TOOL_NAME) return name;
  return `${name.slice(0, MAX_TOOL_NAME - 9)}_${createHash('sha256').update(name).digest('hex').slice(0, 8)}`;
}

/**
 * What a call may do, from the server's annotations: only `readOnlyHint: true` makes a read (allowed at --auto low);
 * a tool that says nothing may change anything, and with `openWorldHint` it reaches beyond this machine.
 */
export function sideEffectOf(tool: ServerTool): SideEffect {
  if (tool.annotations?.readOnlyHint === true) return 'read';
  return tool.annotations?.openWorldHint === true ? 'network' : 'write';
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Why providers or the argument checker cannot take a schema as it is, or undefined when they can. */
function unfit(schema: Record<string, unknown>): string | undefined {
  if (schema.type !== 'object') return 'its top level is not `type: "object"`';
  const combinator = ['anyOf', 'oneOf', 'allOf', 'not', 'enum'].find((key) => key in schema);
  if (combinator) return `its top level has ${combinator}`;
  try {
    compileChecker(schema);
  } catch (error) {
    return `it does not compile (${(error as Error).message})`;
  }
  return undefined;
}

/**
 * The server's input schema, as the provider and the argument checker take it: without `$schema` and `$id` (a
 * draft the checker lacks, an id two servers share); one they cannot take is cut down to its top-level
 * properties, or to any object, with a warning: the server still checks what it gets.
 */
export function parametersOf(name: string, inputSchema: unknown): { parameters: Record<string, unknown>; warning?: string } {
  const { $schema: _draft, $id: _id, ...schema } = isObject(inputSchema) ? inputSchema : {};
  const problem = unfit(schema);
  if (!problem) return { parameters: schema };
  const properties = isObject(schema.properties) ? schema.properties : undefined;
  const required = Array.isArray(schema.required) ? schema.required : undefined;
  const cut = { type: 'object', ...(properties ? { properties } : {}), ...(required ? { required } : {}) };
  const parameters = properties && !unfit(cut) ? cut : { type: 'object' };
  const kept = parameters === cut ? 'its top-level properties' : 'any object';
  return { parameters, warning: `MCP tool ${name}: its input schema was simplified to ${kept}, since ${problem}; the server checks the arguments itself.` };
}

/** A server's tool as a zero tool: the agent loop, permissions, redaction and sessions see nothing else of MCP. */
function asTool(connection: McpConnection, remote: ServerTool, name: string, parameters: Record<string, unknown>): AnyTool {
  const sideEffect = sideEffectOf(remote);
  return {
    name,
    description: (remote.description ?? remote.title ?? `Tool ${remote.name} of MCP server ${connection.spec.name}.`).trim(),
    parameters,
    sideEffect,
    permission: sideEffect === 'read' ? 'allow' : 'prompt',
    server: connection.spec.name,
    async run(args, context) {
      const result = await connection.call(remote.name, args, context.signal);
      const text = resultText(result);
      if (result.isError) throw new Error(text || `MCP tool ${name} reported an error.`);
      return text;
    },
  };
}

/** Every started server's tools, named `mcp_<server>_<tool>`; a name two tools come to share keeps the first, with a warning. */
export function mcpTools(connections: McpConnection[], taken: readonly string[]): { tools: AnyTool[]; warnings: string[] } {
  const names = new Set(taken);
  const tools: AnyTool[] = [];
  const warnings: string[] = [];
  for (const connection of connections) {
    for (const remote of connection.tools) {
      const name = mcpToolName(connection.spec.name, remote.name);
      if (names.has(name)) {
        warnings.push(`MCP tool "${remote.name}" of server "${connection.spec.name}" is left out: another tool is already named ${name}.`);
        continue;
      }
      names.add(name);
      const { parameters, warning } = parametersOf(name, remote.inputSchema);
      if (warning) warnings.push(warning);
      tools.push(asTool(connection, remote, name, parameters));
    }
  }
  return { tools, warnings };
}
