import { isAbsolute, relative } from 'node:path';
import { UsageError } from '../errors.js';
import type { PermissionMode, SideEffect } from '../protocol/types.js';
import type { AnyTool } from './registry.js';
import { isInside } from './sandbox.js';
import type { SandboxMode } from './shell_sandbox.js';

/** Directories in a writable root that hold what runs later, outside the sandbox (git hooks, zero's config): kept read-only. */
export const PROTECTED_NAMES = ['.git', '.zero', '.agents'];

export const AUTO_LEVELS = ['low', 'medium', 'high'] as const;
export type AutoLevel = (typeof AUTO_LEVELS)[number];

export type PermissionSettings = {
  /** --auto (default low); `high` lets `prompt` tools run, like --skip-permissions-unsafe. */
  auto?: AutoLevel;
  skipPermissionsUnsafe?: boolean;
  /** --enabled-tools: only these (when given). */
  enabled?: string[];
  /** --disabled-tools: never these. */
  disabled?: string[];
  /** --permission-prompt stdio: the `prompt` tools are offered, and each call waits for the client's answer. */
  ask?: boolean;
  /** The shell sandbox in force (lib/tools/shell_sandbox.ts); left out, bash runs unconfined. */
  shell?: { sandbox: SandboxMode; network: boolean };
};

export type ToolListing = { name: string; sideEffect: SideEffect; permission: AnyTool['permission']; advertised: boolean; reason: string; server?: string };

export type ToolPlan = {
  /** What the model is told about and may run. */
  advertised: AnyTool[];
  /** Known tools the model may not run, with the reason its call is refused. */
  refusals: Map<string, string>;
  /** Those of the refusals that only a permission (--auto high) would lift: a call to one is a `permission_request`. */
  needPermission: Set<string>;
  /** The advertised tools whose every call is asked for first (--permission-prompt stdio); for an auto-allowed tool, its calls that are not. */
  askFirst: Set<string>;
  /** The `prompt` tools --auto low and medium allow without asking, with the reason their permission_decision gives. */
  autoAllowed: Map<string, string>;
  /** As permission events report it: `unsafe` with --auto high or --skip-permissions-unsafe, `ask` when the client is asked, else `auto`. */
  permissionMode: PermissionMode;
  /** For `warning` events right after run_start. */
  warnings: string[];
  /** One line per known tool, for --list-tools. */
  listing: ToolListing[];
};

export const UNSAFE_WARNING = 'Unsafe permissions are active (--skip-permissions-unsafe or --auto high): tools that change files and run shell commands run without asking.';

const TOOL_NAME = /^[A-Za-z0-9_-]+$/;
/** `mcp_<server>_*`: every tool of one MCP server. */
const SERVER_TOOLS = /^mcp_[A-Za-z0-9_-]+_\*$/;

/** `a,b c` → ['a', 'b', 'c']; a malformed name is a usage error. */
export function parseToolNames(flag: string, values: string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  const names = values.flatMap((value) => value.split(/[\s,]+/)).filter(Boolean);
  for (const name of names) {
    if (!TOOL_NAME.test(name) && !SERVER_TOOLS.test(name)) throw new UsageError(`Invalid tool name in ${flag}: "${name}". Tool names are letters, digits, "_" and "-" (or mcp_<server>_* for all of a server's tools).`);
  }
  return names;
}

/** Whether a name of --enabled-tools / --disabled-tools names the tool. */
const namesTool = (pattern: string, tool: string) => (pattern.endsWith('*') ? tool.startsWith(pattern.slice(0, -1)) : pattern === tool);

function describeEffect(tool: { sideEffect: SideEffect; server?: string }): string {
  if (tool.sideEffect === 'shell') return 'runs shell commands';
  if (tool.sideEffect === 'write' && tool.server) return 'may change things';
  if (tool.sideEffect === 'network') return 'may change things beyond this machine';
  if (tool.sideEffect === 'write') return 'changes files';
  return 'only reads';
}

/** The `reason` of a permission_request the client is asked to answer (--permission-prompt stdio). */
export function askReason(name: string, sideEffect: SideEffect): string {
  return `Permission required: ${name} ${describeEffect({ sideEffect })}. Answer with a permission_response naming this id: allow, deny or allow_always.`;
}

/** The refusal of an auto-allowed write into one of PROTECTED_NAMES: what runs later, outside any sandbox, lives there. */
export function protectedWriteReason(name: string, file: string): string {
  return `Permission required: ${name} would change ${file}, and --auto low and medium never change what is in ${PROTECTED_NAMES.join(', ')} without asking (git hooks and zero's own config run later, outside any sandbox). Re-run with --auto high or --skip-permissions-unsafe to allow it.`;
}

/** Whether a file as changedFiles names it (relative to the working directory, or absolute in an --add-dir) lies in one of PROTECTED_NAMES. */
export function isProtectedPath(file: string, realRoots: string[]): boolean {
  const root = realRoots.filter((candidate) => isAbsolute(file) && isInside(candidate, file)).sort((a, b) => b.length - a.length)[0];
  const relativePath = root ? relative(root, file) : file;
  return relativePath.split(/[\\/]/).some((segment) => PROTECTED_NAMES.includes(segment));
}

/** Why --auto low or medium lets a `prompt` tool run without asking, or undefined when it does not. */
function autoReason(tool: AnyTool, level: AutoLevel, shell: PermissionSettings['shell']): string | undefined {
  if (tool.server) return undefined;
  if (tool.sideEffect === 'write' && shell?.sandbox !== 'read-only') return `Auto-allowed at --auto ${level}: a write inside the working directory and the --add-dir directories.`;
  if (tool.sideEffect === 'shell' && shell && shell.sandbox !== 'off' && !shell.network) return `Auto-allowed at --auto ${level}: sandboxed shell (${shell.sandbox}, no network).`;
  return undefined;
}

/** Why --auto low or medium does not let this `prompt` tool run without asking. */
function withoutSandbox(tool: AnyTool, shell: PermissionSettings['shell']): string {
  if (tool.server) return `${describeEffect(tool)} (MCP server ${tool.server}; not marked read-only)`;
  if (tool.sideEffect === 'write') return `${describeEffect(tool)} and the sandbox is read-only`;
  if (tool.sideEffect !== 'shell') return describeEffect(tool);
  if (!shell || shell.sandbox === 'off') return `${describeEffect(tool)} outside a sandbox`;
  return `${describeEffect(tool)} with network access (--sandbox-network)`;
}

/**
 * Which tools the model sees and may run. By default (--auto low or medium) the `allow` tools, the write tools
 * (inside the allowed directories: the path sandbox refuses the rest) and bash when it runs in a sandbox without
 * network; with --skip-permissions-unsafe or --auto high every tool. --enabled-tools / --disabled-tools narrow
 * that; a name not among `tools` is a usage error (a wrapper asking for a tool this run lacks would otherwise
 * run without noticing).
 */
export function planTools(tools: AnyTool[], settings: PermissionSettings = {}): ToolPlan {
  const unsafe = Boolean(settings.skipPermissionsUnsafe) || settings.auto === 'high';
  const level = settings.auto ?? 'low';
  const { enabled, disabled = [] } = settings;
  const both = enabled?.find((name) => disabled.includes(name));
  if (both) throw new UsageError(`Tool "${both}" is both in --enabled-tools and in --disabled-tools.`);

  const known = new Set(tools.map((tool) => tool.name));
  for (const [flag, names] of [['--enabled-tools', enabled ?? []], ['--disabled-tools', disabled]] as const) {
    const unknown = names.find((name) => ![...known].some((tool) => namesTool(name, tool)));
    if (unknown) throw new UsageError(`Unknown tool "${unknown}" in ${flag}: this run has ${[...known].join(', ')}.`);
  }

  const ask = Boolean(settings.ask) && !unsafe;
  const permissionMode = unsafe ? 'unsafe' : ask ? 'ask' : 'auto';
  const warnings = unsafe ? [UNSAFE_WARNING] : [];
  const plan: ToolPlan = { advertised: [], refusals: new Map(), needPermission: new Set(), askFirst: new Set(), autoAllowed: new Map(), permissionMode, warnings, listing: [] };
  for (const tool of tools) {
    // [reason for the listing, message for the model when it calls the tool anyway]
    let refused: [string, string] | undefined;
    let allowedBy = 'always allowed';
    const auto = tool.permission === 'prompt' && !unsafe ? autoReason(tool, level, settings.shell) : undefined;
    if (disabled.some((name) => namesTool(name, tool.name))) refused = ['disabled by --disabled-tools', `Tool ${tool.name} is disabled by --disabled-tools.`];
    else if (enabled && !enabled.some((name) => namesTool(name, tool.name))) refused = ['not in --enabled-tools', `Tool ${tool.name} is not in --enabled-tools.`];
    else if (tool.permission === 'allow') allowedBy = 'always allowed';
    else if (unsafe) allowedBy = 'allowed by unsafe permissions';
    else if (auto) {
      plan.autoAllowed.set(tool.name, auto);
      if (ask) plan.askFirst.add(tool.name);
      allowedBy = tool.sideEffect === 'shell' ? `auto-allowed in the ${settings.shell?.sandbox} sandbox` : 'auto-allowed inside the working directory and the --add-dir directories';
    } else if (ask) {
      plan.askFirst.add(tool.name);
      allowedBy = 'asked for on each call (--permission-prompt stdio)';
    } else {
      plan.needPermission.add(tool.name);
      const why = withoutSandbox(tool, settings.shell);
      refused = [`${why}: needs --auto high or --skip-permissions-unsafe`, `Permission required: ${tool.name} ${why}, which this run does not allow. Re-run with --auto high or --skip-permissions-unsafe to allow it.`];
    }
    if (refused) plan.refusals.set(tool.name, refused[1]);
    else plan.advertised.push(tool);
    const reason = refused?.[0] ?? `${describeEffect(tool)}: ${allowedBy}`;
    plan.listing.push({ name: tool.name, sideEffect: tool.sideEffect, permission: tool.permission, advertised: !refused, reason, ...(tool.server ? { server: tool.server } : {}) });
  }
  return plan;
}
