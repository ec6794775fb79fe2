import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { looksLikeCredential } from '../tools/child_env.js';
import { fieldOf, invalidConfig, isConfigObject, readConfigFile, type ConfigLayer, type ConfigObject } from '../providers/config-files.js';

/** Where a server's definition came from: whether it may start at --auto low depends on it. */
export type ServerOrigin = { scope: 'flag' | 'user' | 'project'; file: string };

type Common = {
  name: string;
  origin: ServerOrigin;
  /** `optional: true`: a server that cannot start is a warning, not the run's end. */
  optional: boolean;
  /** Bound on each of its tool calls (`toolTimeoutSec`, default DEFAULT_TOOL_TIMEOUT_MS). */
  toolTimeoutMs: number;
  /** `auth: "oauth"` (Zero signs in and keeps a token): not supported here, so the server is left out, with a warning. */
  oauth?: true;
};
export type StdioServer = Common & { transport: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string };
export type HttpServer = Common & { transport: 'http'; url: string; headers: Record<string, string> };
export type McpServerSpec = StdioServer | HttpServer;

export const DEFAULT_TOOL_TIMEOUT_MS = 120_000;

/** The three places Zero's loader takes servers from, as they are spelled in its config files. */
const SECTION_NAMES = ['mcpServers', 'mcp_servers', 'mcp.servers'] as const;

/** Zero's rule for a server's name: letters, digits, dots, dashes, underscores. */
const SERVER_NAME = /^[A-Za-z0-9._-]+$/;

function sectionOf(document: ConfigObject, name: (typeof SECTION_NAMES)[number]): unknown {
  if (name !== 'mcp.servers') return fieldOf(document, name);
  const mcp = fieldOf(document, 'mcp');
  return isConfigObject(mcp) ? fieldOf(mcp, 'servers') : undefined;
}

/** Keys as the config files' other sections match them: any case, `_` and `-` ignored. */
const keyOf = (key: string) => key.replace(/[_-]/g, '').toLowerCase();
const field = (entry: ConfigObject, name: string) => Object.entries(entry).find(([key]) => keyOf(key) === keyOf(name))?.[1];

function stringMap(file: string, what: string, value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isConfigObject(value) || !Object.values(value).every((item) => typeof item === 'string')) throw invalidConfig(file, `${what} must be an object of strings.`);
  return value as Record<string, string>;
}

function text(file: string, what: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidConfig(file, `${what} must be a string.`);
  return value.trim() || undefined;
}

function timeoutOf(file: string, what: string, value: unknown): number {
  if (value === undefined || value === null) return DEFAULT_TOOL_TIMEOUT_MS;
  if (typeof value !== 'number' || !(value > 0) || value > 86_400) throw invalidConfig(file, `${what} must be a positive number of seconds (at most 86400).`);
  return Math.round(value * 1000);
}

/** One entry of a section, checked as Zero checks it; undefined when it is `disabled: true`. */
export function serverSpec(name: string, entry: unknown, origin: ServerOrigin, cwd: string): McpServerSpec | undefined {
  const { file } = origin;
  const what = (key: string) => `MCP server "${name}": ${key}`;
  if (!SERVER_NAME.test(name)) throw invalidConfig(file, `invalid MCP server name "${name}": use letters, digits, dots, dashes or underscores.`);
  if (!isConfigObject(entry)) throw invalidConfig(file, `MCP server "${name}" must be an object.`);
  if (field(entry, 'disabled') === true) return undefined;
  const type = text(file, what('type'), field(entry, 'type'))?.toLowerCase();
  const url = text(file, what('url'), field(entry, 'url'));
  const oauth = String(field(entry, 'auth')).toLowerCase() === 'oauth' ? { oauth: true as const } : {};
  const common = { name, origin, optional: field(entry, 'optional') === true, toolTimeoutMs: timeoutOf(file, what('toolTimeoutSec'), field(entry, 'toolTimeoutSec')), ...oauth };
  if (type === 'http' || type === 'streamable-http' || (type === undefined && url)) {
    if (!url || !/^https?:\/\/[^/]/i.test(url)) throw invalidConfig(file, `${what('url')} must be an http or https URL.`);
    if (field(entry, 'command') !== undefined) throw invalidConfig(file, `${what('command')} is only for stdio servers (this one has a url).`);
    return { ...common, transport: 'http', url, headers: stringMap(file, what('headers'), field(entry, 'headers')) };
  }
  if (type !== undefined && type !== 'stdio') throw invalidConfig(file, `${what('type')} "${type}" is not supported: use "stdio" (a command) or "http" (streamable HTTP).`);
  const command = text(file, what('command'), field(entry, 'command'));
  if (!command) throw invalidConfig(file, `${what('command')} is missing: a stdio server is a command to run.`);
  const args = field(entry, 'args') ?? [];
  if (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string')) throw invalidConfig(file, `${what('args')} must be an array of strings.`);
  const dir = text(file, what('cwd'), field(entry, 'cwd'));
  return { ...common, transport: 'stdio', command, args, env: stringMap(file, what('env'), field(entry, 'env')), ...(dir ? { cwd: resolve(cwd, dir) } : {}) };
}

/** A document's servers by name, from the three sections; a name in two of them is an error, as in Zero. */
function documentServers(document: ConfigObject, origin: ServerOrigin, cwd: string): Map<string, McpServerSpec | undefined> {
  const found = new Map<string, { section: string; spec: McpServerSpec | undefined }>();
  for (const section of SECTION_NAMES) {
    const value = sectionOf(document, section);
    if (value === undefined) continue;
    if (!isConfigObject(value)) throw invalidConfig(origin.file, `${section} must be an object of servers by name.`);
    for (const [name, entry] of Object.entries(value)) {
      const earlier = found.get(name);
      if (earlier) throw invalidConfig(origin.file, `MCP server "${name}" is defined in both ${earlier.section} and ${section}.`);
      found.set(name, { section, spec: serverSpec(name, entry, origin, cwd) });
    }
  }
  return new Map([...found].map(([name, { spec }]) => [name, spec]));
}

/** --mcp-config FILE: Claude Code's `{"mcpServers": {…}}` (Zero's other two sections are read too). */
async function flagDocument(file: string, cwd: string): Promise<ConfigObject> {
  const path = resolve(cwd, file);
  const document = await readConfigFile(path).catch((error: Error) => Promise.reject(new UsageError(`--mcp-config ${file}: ${error.message.replace(/^Invalid config file [^:]*: /, '')}`)));
  if (!document) throw new UsageError(`--mcp-config ${file}: no such file.`);
  return document;
}

export type ServerSelection = { servers: McpServerSpec[]; warnings: string[] };

/**
 * The servers this run starts: --mcp-config files over the user's file over the project's, by name. A server
 * only the project's file names (it came with the repository) starts at --auto medium or higher; else a warning.
 */
export async function selectServers(layers: ConfigLayer[], flagFiles: string[], options: { cwd: string; trustProject: boolean }): Promise<ServerSelection> {
  const { cwd, trustProject } = options;
  const byName = new Map<string, McpServerSpec | undefined>();
  const warnings: string[] = [];
  const sources = [
    ...layers.map((layer) => ({ origin: { scope: layer.scope, file: layer.file }, document: async () => layer.document })),
    ...flagFiles.map((file) => ({ origin: { scope: 'flag' as const, file: resolve(cwd, file) }, document: () => flagDocument(file, cwd) })),
  ].sort((a, b) => rank(b.origin) - rank(a.origin));
  for (const { origin, document } of sources) {
    for (const [name, spec] of documentServers(await document(), origin, cwd)) {
      if (byName.has(name)) continue;
      if (spec?.oauth) {
        // Zero signs in to such a server and keeps its token; without it every call would be refused (401)
        warnings.push(`MCP server "${name}" of ${origin.file} is not started: it signs in with OAuth (auth: "oauth"), which zero-stream does not support. Give it a token in its headers instead, or set "disabled": true.`);
        byName.set(name, undefined);
        continue;
      }
      if (spec?.origin.scope === 'project' && !trustProject) {
        warnings.push(`MCP server "${name}" of ${origin.file} is not started: a project's config file starts programs only with --auto medium or higher, or when your own config file or --mcp-config names the server too.`);
        continue;
      }
      byName.set(name, spec);
    }
  }
  return { servers: [...byName.values()].filter((spec) => spec !== undefined), warnings };
}

const rank = (origin: ServerOrigin) => ({ project: 0, user: 1, flag: 2 })[origin.scope];

/** The credentials a server's definition holds (every header value, env values named like credentials): redacted from then on. */
export function serverSecrets(servers: McpServerSpec[]): string[] {
  const values = servers.flatMap((spec) =>
    spec.transport === 'http'
      ? Object.values(spec.headers).flatMap((value) => [value, value.split(/\s+/).at(-1)!])
      : Object.entries(spec.env).flatMap(([name, value]) => (looksLikeCredential(name) ? [value] : [])),
  );
  return values.filter((value) => value.length >= 8);
}
