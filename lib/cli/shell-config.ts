import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { ProviderError } from '../errors.js';
import { readConfigFiles } from '../providers/config.js';
import { ENV_INHERITS, type EnvInherit, type EnvPolicy } from '../tools/child_env.js';
import { SANDBOX_MODES, type SandboxMode } from '../tools/shell_sandbox.js';

/**
 * The `sandbox` and `shellEnvironment` sections of the config files (Zero's `sandbox` keys: `network`,
 * `additionalWriteRoots`; zero-stream's `mode`; `shellEnvironment` as Codex's `shell_environment_policy`). The
 * project file (.zero/config.json, which comes with a cloned repository) may only tighten what the user's file
 * and the defaults allow: it cannot turn the sandbox off, open the network, hand commands more variables, or add
 * writable directories.
 */
export type ShellConfig = {
  mode?: { value: SandboxMode; file: string };
  network?: boolean;
  /** Zero's sandbox.additionalWriteRoots (user file only): more directories write tools and commands may change. */
  writeRoots: string[];
  env: Omit<EnvPolicy, 'pass'>;
  warnings: string[];
};

/** Keys as Zero matches them: any case; `_` and `-` ignored (so `shell_environment` is `shellEnvironment`). */
const keyOf = (key: string) => key.replace(/[_-]/g, '').toLowerCase();

function section(fields: Record<string, unknown>, name: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([key]) => keyOf(key) === keyOf(name)).flatMap(([, value]) => (isObject(value) ? Object.entries(value).map(([key, inner]) => [keyOf(key), inner]) : [])));
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

function invalid(file: string, key: string, expected: string): ProviderError {
  return new ProviderError(`Invalid config file ${file}: ${key} must be ${expected}.`);
}

function strings(file: string, key: string, value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw invalid(file, key, 'an array of strings');
  return value as string[];
}

const STRICTNESS: Record<SandboxMode, number> = { off: 0, 'workspace-write': 1, 'read-only': 2 };
const BREADTH: Record<EnvInherit, number> = { none: 0, core: 1, all: 2 };

function modeOf(file: string, value: unknown): SandboxMode | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const mode = typeof value === 'string' ? value.trim().toLowerCase() : value;
  if (!(SANDBOX_MODES as readonly unknown[]).includes(mode)) throw invalid(file, 'sandbox.mode', `one of ${SANDBOX_MODES.join(', ')}`);
  return mode as SandboxMode;
}

/** Zero's "allow" / "deny" (anything but allow is deny there), or true / false. */
function networkOf(file: string, value: unknown): boolean | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && ['allow', 'deny'].includes(value.trim().toLowerCase())) return value.trim().toLowerCase() === 'allow';
  throw invalid(file, 'sandbox.network', '"allow", "deny", true or false');
}

function writeRootsOf(file: string, value: unknown): string[] {
  return strings(file, 'sandbox.additionalWriteRoots', value).map((entry) => {
    const path = entry.trim() === '~' || entry.startsWith('~/') ? join(homedir(), entry.slice(1)) : entry;
    const dir = isAbsolute(path) ? path : resolve(path);
    let ok = false;
    try {
      ok = statSync(dir).isDirectory();
    } catch {
      // reported below
    }
    if (!ok) throw new ProviderError(`Invalid config file ${file}: sandbox.additionalWriteRoots names ${entry}, which is not a directory.`);
    return dir;
  });
}

function readSandbox(config: ShellConfig, file: string, project: boolean, fields: Record<string, unknown>): void {
  const sandbox = section(fields, 'sandbox');
  const mode = modeOf(file, sandbox.mode);
  const ignored = (what: string) => config.warnings.push(`Config file ${file}: ${what} is ignored: a project's config file may only tighten the sandbox.`);
  if (mode && project && STRICTNESS[mode] < STRICTNESS[config.mode?.value ?? 'workspace-write']) ignored(`sandbox.mode "${mode}"`);
  else if (mode) config.mode = { value: mode, file };
  const network = networkOf(file, sandbox.network);
  if (network && project) ignored('sandbox.network "allow"');
  else if (network !== undefined) config.network = network;
  if (project && strings(file, 'sandbox.additionalWriteRoots', sandbox.additionalwriteroots).length) ignored('sandbox.additionalWriteRoots');
  else if (!project) config.writeRoots.push(...writeRootsOf(file, sandbox.additionalwriteroots));
  const unsupported = [
    ['blockunixsockets', 'blockUnixSockets', 'sockets under /run are hidden from sandboxed commands instead'],
    ['monitordenials', 'monitorDenials', "a refused write shows in the command's own output and exit code"],
  ];
  for (const [key, name, instead] of unsupported) {
    if (sandbox[key!] === true) config.warnings.push(`Config file ${file}: sandbox.${name} is not supported by zero-stream and is ignored (${instead}).`);
  }
}

function readEnvironment(config: ShellConfig, file: string, project: boolean, fields: Record<string, unknown>): void {
  const policy = section(fields, 'shellEnvironment');
  const inherit = policy.inherit;
  if (inherit !== undefined && !(typeof inherit === 'string' && (ENV_INHERITS as readonly string[]).includes(inherit))) throw invalid(file, 'shellEnvironment.inherit', `one of ${ENV_INHERITS.join(', ')}`);
  const include = strings(file, 'shellEnvironment.include', policy.include);
  const exclude = strings(file, 'shellEnvironment.exclude', policy.exclude);
  const set = policy.set ?? {};
  if (!isObject(set) || !Object.values(set).every((value) => typeof value === 'string')) throw invalid(file, 'shellEnvironment.set', 'an object of strings');
  const widens = inherit !== undefined && BREADTH[inherit as EnvInherit] > BREADTH[config.env.inherit];
  const given = [widens && 'inherit', include.length && 'include', Object.keys(set).length && 'set'].filter(Boolean);
  if (project && given.length) config.warnings.push(`Config file ${file}: shellEnvironment ${given.join(', ')} is ignored: a project's config file may only pass fewer variables to commands.`);
  if (inherit !== undefined && !(project && widens)) config.env.inherit = inherit as EnvInherit;
  config.env.exclude.push(...exclude);
  if (project) return;
  config.env.include.push(...include);
  Object.assign(config.env.set, set);
}

/** The two sections of the user's and the project's config files, merged. */
export async function readShellConfig(cwd: string, env: NodeJS.ProcessEnv): Promise<ShellConfig> {
  const config: ShellConfig = { writeRoots: [], env: { inherit: 'all', include: [], exclude: [], set: {} }, warnings: [] };
  for (const { file, project, fields } of await readConfigFiles(cwd, env)) {
    readSandbox(config, file, project, fields);
    readEnvironment(config, file, project, fields);
  }
  return config;
}
