import { selectServers, serverSecrets } from '../mcp/config.js';
import type { ZeroConfig } from '../providers/config.js';
import type { AnyTool } from '../tools/registry.js';
import { type ExecSettings } from './options.js';
import { seconds } from './option-values.js';

/** The MCP flags as commander hands them over. */
export type RawMcpOptions = { mcpConfig?: string[]; mcpTimeout?: string };

/** The run's MCP servers, started: their tools for the permission plan, what to say at the start, and their stop. */
export type McpSetup = { tools: AnyTool[]; warnings: string[]; close(): Promise<void> };

export const DEFAULT_MCP_TIMEOUT_MS = 30_000;

const nothing = async () => {};

/**
 * Starts the servers the config files and --mcp-config name (lib/mcp), from the config loaded once for the run.
 * `secrets` gets the credentials their definitions hold before anything is started, so that whatever a server
 * says is redacted. Without a server the MCP client is not even loaded.
 */
export async function startMcp(
  raw: RawMcpOptions,
  settings: Pick<ExecSettings, 'cwd' | 'permissions'>,
  config: Pick<ZeroConfig, 'layers'>,
  child: { env: Record<string, string>; secrets: string[]; log(line: string): void; signal?: AbortSignal },
  builtIn: readonly AnyTool[],
): Promise<McpSetup> {
  const timeoutMs = seconds('--mcp-timeout', raw.mcpTimeout) ?? DEFAULT_MCP_TIMEOUT_MS;
  const { auto, skipPermissionsUnsafe } = settings.permissions;
  const trustProject = Boolean(skipPermissionsUnsafe) || auto === 'medium' || auto === 'high';
  const { servers, warnings } = await selectServers(config.layers, raw.mcpConfig ?? [], { cwd: settings.cwd, trustProject });
  if (servers.length === 0) return { tools: [], warnings, close: nothing };
  child.secrets.push(...serverSecrets(servers));
  const [{ startServers }, { mcpTools }] = await Promise.all([import('../mcp/client.js'), import('../mcp/tools.js')]);
  const started = await startServers(servers, { ...child, cwd: settings.cwd, timeoutMs });
  const close = async () => void (await Promise.all(started.connections.map((connection) => connection.close())));
  const { tools, warnings: toolWarnings } = mcpTools(started.connections, builtIn.map((tool) => tool.name));
  return { tools, warnings: [...warnings, ...started.warnings, ...toolWarnings], close };
}
