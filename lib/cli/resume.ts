import { ZeroError } from '../errors.js';
import type { ProviderChoice } from '../providers/index.js';
import type { ZeroConfig } from '../providers/config.js';
import { latestSessionFor, openSession, sessionsRoot, type Launch } from '../sessions/index.js';
import { readLaunch } from '../sessions/launch.js';
import type { ExecSettings } from './options.js';

/**
 * The provider flags of a run: as given, or for --resume and --fork, the session's own where none was given; and
 * then the session they came from, by id, so that the run continues that one (`--resume` alone names no id, and
 * another run may make a newer session meanwhile).
 */
export type ProviderFlags = Pick<ExecSettings, 'provider' | 'model' | 'script'> & { session?: ExecSettings['session'] };

/**
 * --resume and --fork continue with the provider, model and (scripted) script the session ran with: a
 * conversation belongs to its model. Flags say otherwise: --provider starts from nothing of the session's,
 * --model or --script replace only themselves. The session wins over ZERO_PROVIDER and the config files,
 * which say what a new run uses. A session of an older version records no script: ZERO_SCRIPT or --script then.
 */
export async function providerFlags(settings: ExecSettings, env: NodeJS.ProcessEnv): Promise<ProviderFlags> {
  const { provider, model, script, session: choice } = settings;
  if (!choice || provider !== undefined || settings.noSession) return { provider, model, script };
  const root = sessionsRoot(env);
  const session = 'fork' in choice ? await openSession(root, choice.fork) : choice.resume === true ? await latestSessionFor(root, settings.cwd) : await openSession(root, choice.resume);
  // what metadata.json holds redacted (a secret in the script's path or the profile's name), as it was
  const recorded = { ...session.metadata, ...(await readLaunch(session.dir)) };
  // metadata rebuilt from a damaged file may not know the provider
  const pinned = 'fork' in choice ? choice : { resume: session.id };
  if (recorded.provider === 'unknown') return { provider, model, script, session: pinned };
  return { provider: recorded.profile ?? recorded.provider, model: model ?? recorded.model, script: script ?? recorded.script, session: pinned };
}

/**
 * A provider that cannot run (no key, a bad one), when it was not asked for but came from the session resumed or
 * forked: the error says so, and how to continue with another. Any other error comes back as it was.
 */
export function sessionProviderError(error: unknown, settings: Pick<ExecSettings, 'provider'>, flags: ProviderFlags): unknown {
  if (!(error instanceof ZeroError) || settings.provider !== undefined || flags.provider === undefined || !flags.session) return error;
  const id = 'fork' in flags.session ? flags.session.fork : flags.session.resume;
  const model = flags.model ? ` (model ${flags.model})` : '';
  const hint = ` The ${flags.provider} provider${model} is the one session ${id} ran with; to continue it with another, pass --provider NAME (and --model NAME).`;
  return new ZeroError(error.code, `${error.message}${hint}`, error.exitCode, error.recoverable, { cause: error });
}

/** What the session records of how the provider was chosen: the profile that chose it, and the script. */
export function launchOf(choice: ProviderChoice, asked: string | undefined, env: NodeJS.ProcessEnv, config: ZeroConfig): Launch {
  const name = (asked ?? env.ZERO_PROVIDER)?.trim() || config.activeProvider?.name;
  return { profile: name && config.profiles.has(name) ? name : undefined, script: choice.kind === 'scripted' ? choice.script : undefined };
}
