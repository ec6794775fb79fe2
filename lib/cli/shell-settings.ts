import { realpathSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { configPaths } from '../providers/config.js';
import { INSTALL_HINT, sandboxSupport } from '../tools/bubblewrap.js';
import { childEnvironment } from '../tools/child_env.js';
import { SANDBOX_MODES, type SandboxMode, type ShellPolicy } from '../tools/shell_sandbox.js';
import { type ExecSettings } from './options.js';
import { choice } from './option-values.js';
import { readShellConfig } from './shell-config.js';

/** The shell flags as commander hands them over. */
export type RawShellOptions = { sandbox?: string; sandboxNetwork?: boolean; envPass?: string[] };

/** How this run's shell commands are confined, decided before the run starts. */
export type ShellSetup = {
  /** The sandbox in force and the network, as the permission plan weighs them. */
  shell: { sandbox: SandboxMode; network: boolean };
  /** For right after run_start: the config files' notes. */
  warnings: string[];
  /** Which sandbox is in force and what that lets a command do, whenever bash may run (a `warning` of its own, or the unsafe one's end). */
  statement?: string;
  /** sandbox.additionalWriteRoots of the user's config file: more directories write tools and commands may change. */
  writeRoots: string[];
  /** The policy bash runs under, its environment free of `secrets` (the run's credentials, known once its provider is). */
  policy(roots: string[], secrets: readonly string[]): ShellPolicy;
};

const ENV_NAME = /^[A-Za-z0-9_*?]+$/;

function envPassNames(values: string[] = []): string[] {
  const names = values.flatMap((value) => value.split(/[\s,]+/)).filter(Boolean);
  const bad = names.find((name) => !ENV_NAME.test(name));
  if (bad !== undefined) throw new UsageError(`Invalid value for --env-pass: "${bad}". Expected a variable name, or a glob of one (letters, digits, "_", "*" and "?").`);
  return names;
}

/** Whether --enabled-tools / --disabled-tools leave bash in the tool set: otherwise its sandbox is nobody's concern. */
function bashMayRun(settings: ExecSettings): boolean {
  const { enabled, disabled = [] } = settings.permissions;
  return !disabled.includes('bash') && (!enabled || enabled.includes('bash'));
}

function statement(mode: SandboxMode, network: boolean, source: string): string {
  if (mode === 'off') {
    return `Shell commands run without a sandbox (${source}): they can change anything you can, reach the network and read this process's environment, and a process they move to a session of its own outlives the run.`;
  }
  const writes = mode === 'workspace-write' ? 'write only the working directory, the --add-dir directories and a private /tmp' : 'write only a private /tmp';
  const net = network ? 'the network is open (--sandbox-network)' : 'there is no network';
  return `Shell commands run in the ${mode} sandbox (bubblewrap, ${source}): they can read the file system but ${writes}; ${net}; nothing they start outlives the call.`;
}

const realRoot = (dir: string) => {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
};

/** The sandbox flags, the config files and what this machine allows, weighed; bubblewrap is checked once, when bash may run. */
export async function shellSetup(raw: RawShellOptions, settings: ExecSettings, env: NodeJS.ProcessEnv): Promise<ShellSetup> {
  const flag = raw.sandbox === undefined ? undefined : choice('--sandbox', raw.sandbox, SANDBOX_MODES);
  const pass = envPassNames(raw.envPass);
  const mayRun = bashMayRun(settings);
  // checked while the config files are read; wasted only when a config file turns the sandbox off
  const checking = mayRun && flag !== 'off' && !(flag === undefined && settings.permissions.skipPermissionsUnsafe) ? sandboxSupport(env, settings.cwd) : undefined;
  const config = await readShellConfig(settings.cwd, env);
  const [mode, source]: [SandboxMode, string] = flag
    ? [flag, `--sandbox ${flag}`]
    : settings.permissions.skipPermissionsUnsafe
      ? ['off', '--skip-permissions-unsafe']
      : config.mode
        ? [config.mode.value, `sandbox.mode in ${config.mode.file}`]
        : ['workspace-write', 'the default'];
  const network = Boolean(raw.sandboxNetwork) || Boolean(config.network);
  let inForce = mode;
  let bwrap: string | undefined;
  let said: string | undefined;
  if (mayRun) {
    const support = mode === 'off' ? undefined : await (checking ?? sandboxSupport(env, settings.cwd));
    if (support?.ok) bwrap = support.bwrap;
    if (support && !support.ok) {
      inForce = 'off';
      said = `The shell sandbox (${mode}) is off: ${support.reason}. ${INSTALL_HINT} Until then shell commands run unconfined, so at --auto low and medium bash needs a permission.`;
    } else said = statement(mode, network, source);
  }
  const userConfig = configPaths(settings.cwd, env)[0];
  return {
    shell: { sandbox: inForce, network },
    warnings: config.warnings,
    statement: said,
    writeRoots: config.writeRoots,
    policy: (roots, secrets) => ({
      sandbox: inForce,
      network: inForce === 'off' || network,
      roots: [...new Set(roots.map(realRoot))],
      env: childEnvironment(env, { ...config.env, pass }, secrets),
      bwrap,
      hidden: [userConfig],
    }),
  };
}
