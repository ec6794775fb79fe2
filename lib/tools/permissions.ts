import { UsageError } from '../errors.js';
import type { PermissionMode, SideEffect } from '../protocol/types.js';
import type { AnyTool } from './registry.js';

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
};

export type ToolListing = { name: string; sideEffect: SideEffect; permission: AnyTool['permission']; advertised: boolean; reason: string };

export type ToolPlan = {
  /** What the model is told about and may run. */
  advertised: AnyTool[];
  /** Known tools the model may not run, with the reason its call is refused. */
  refusals: Map<string, string>;
  /** Those of the refusals that only a permission (--auto high) would lift: a call to one is a `permission_request`. */
  needPermission: Set<string>;
  /** The advertised tools whose every call is asked for first (--permission-prompt stdio). */
  askFirst: Set<string>;
  /** As permission events report it: `unsafe` with --auto high or --skip-permissions-unsafe, `ask` when the client is asked, else `auto`. */
  permissionMode: PermissionMode;
  /** For `warning` events right after run_start. */
  warnings: string[];
  /** One line per known tool, for --list-tools. */
  listing: ToolListing[];
};

export const UNSAFE_WARNING = 'Unsafe permissions are active (--skip-permissions-unsafe or --auto high): tools that change files and run shell commands run without asking.';

const TOOL_NAME = /^[A-Za-z0-9_-]+$/;

/** `a,b c` → ['a', 'b', 'c']; a malformed name is a usage error. */
export function parseToolNames(flag: string, values: string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  const names = values.flatMap((value) => value.split(/[\s,]+/)).filter(Boolean);
  for (const name of names) {
    if (!TOOL_NAME.test(name)) throw new UsageError(`Invalid tool name in ${flag}: "${name}". Tool names are letters, digits, "_" and "-".`);
  }
  return names;
}

function describeEffect(tool: { sideEffect: SideEffect }): string {
  if (tool.sideEffect === 'shell') return 'runs shell commands';
  if (tool.sideEffect === 'write') return 'changes files';
  return 'only reads';
}

/** The `reason` of a permission_request the client is asked to answer (--permission-prompt stdio). */
export function askReason(name: string, sideEffect: SideEffect): string {
  return `Permission required: ${name} ${describeEffect({ sideEffect })}. Answer with a permission_response naming this id: allow, deny or allow_always.`;
}

/**
 * Which tools the model sees and may run. By default (--auto low or medium)
 * only `allow` tools; with --skip-permissions-unsafe or --auto high also the
 * `prompt` ones. --enabled-tools / --disabled-tools narrow that; a name this
 * version does not know is skipped with a warning (wrappers written for other
 * versions pass names we lack).
 */
export function planTools(tools: AnyTool[], settings: PermissionSettings = {}): ToolPlan {
  const unsafe = Boolean(settings.skipPermissionsUnsafe) || settings.auto === 'high';
  const { enabled, disabled = [] } = settings;
  const both = enabled?.find((name) => disabled.includes(name));
  if (both) throw new UsageError(`Tool "${both}" is both in --enabled-tools and in --disabled-tools.`);

  const known = new Set(tools.map((tool) => tool.name));
  const warnings = unsafe ? [UNSAFE_WARNING] : [];
  for (const [flag, names] of [['--enabled-tools', enabled ?? []], ['--disabled-tools', disabled]] as const) {
    for (const name of names) {
      if (!known.has(name)) warnings.push(`Unknown tool "${name}" in ${flag} skipped: this version has ${[...known].join(', ')}.`);
    }
  }

  const ask = Boolean(settings.ask) && !unsafe;
  const permissionMode = unsafe ? 'unsafe' : ask ? 'ask' : 'auto';
  const plan: ToolPlan = { advertised: [], refusals: new Map(), needPermission: new Set(), askFirst: new Set(), permissionMode, warnings, listing: [] };
  for (const tool of tools) {
    // [reason for the listing, message for the model when it calls the tool anyway]
    let refused: [string, string] | undefined;
    if (disabled.includes(tool.name)) refused = ['disabled by --disabled-tools', `Tool ${tool.name} is disabled by --disabled-tools.`];
    else if (enabled && !enabled.includes(tool.name)) refused = ['not in --enabled-tools', `Tool ${tool.name} is not in --enabled-tools.`];
    else if (tool.permission === 'prompt' && ask) plan.askFirst.add(tool.name);
    else if (tool.permission === 'prompt' && !unsafe) {
      plan.needPermission.add(tool.name);
      refused = [
        `${describeEffect(tool)}: needs --auto high or --skip-permissions-unsafe`,
        `Permission required: ${tool.name} ${describeEffect(tool)}, which this run does not allow. Re-run with --auto high or --skip-permissions-unsafe to allow it.`,
      ];
    }
    if (refused) plan.refusals.set(tool.name, refused[1]);
    else plan.advertised.push(tool);
    const allowedBy = tool.permission === 'allow' ? 'always allowed' : ask ? 'asked for on each call (--permission-prompt stdio)' : 'allowed by unsafe permissions';
    const reason = refused?.[0] ?? `${describeEffect(tool)}: ${allowedBy}`;
    plan.listing.push({ name: tool.name, sideEffect: tool.sideEffect, permission: tool.permission, advertised: !refused, reason });
  }
  return plan;
}
