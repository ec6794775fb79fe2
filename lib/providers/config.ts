import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ProviderError } from '../errors.js';

/** The kinds zero-stream runs: all of Zero's but google. */
export const PROFILE_KINDS = ['openai', 'anthropic', 'anthropic-compatible', 'openai-compatible'] as const;
export type ProfileKind = (typeof PROFILE_KINDS)[number];
const ZERO_KINDS: readonly string[] = [...PROFILE_KINDS, 'google'];

/** The way round the one Zero kind zero-stream cannot run. */
const GEMINI_ROUTE = ' (Gemini also speaks OpenAI: provider openai-compatible, baseURL https://generativelanguage.googleapis.com/v1beta/openai/)';

/** The prefix of a kind's environment variables (OPENAI_API_KEY, ANTHROPIC_BASE_URL, …). */
export const envPrefix = (kind: ProfileKind) => (kind.startsWith('anthropic') ? 'ANTHROPIC' : 'OPENAI');

/**
 * One entry of `providers` in a config file; unknown fields are ignored. A
 * profile that cannot be used keeps a `problem`, which is an error only when
 * the profile is selected.
 */
export type Profile = {
  name: string;
  provider: ProfileKind;
  baseURL?: string;
  model?: string;
  apiKey?: string;
  /** The environment variable the key was read from (`apiKeyEnv`). */
  apiKeyEnv?: string;
  /** False when the profile says its model takes no images (`supportsImages: false`). */
  acceptsImages?: false;
  file: string;
  problem?: string;
  /** The problem is a mistake in the file, not a limit of zero-stream: a warning when the profile is not selected. */
  warnWhenUnselected?: true;
};

export type ZeroConfig = {
  activeProvider?: { name: string; file: string };
  profiles: Map<string, Profile>;
  maxTurns?: number;
  /** Mistakes in the files that do not stop a run (in a profile nobody selected, an entry nothing can select): `warning` events. */
  warnings: string[];
};

/** The user file ($XDG_CONFIG_HOME/zero/config.json, else ~/.config/zero/config.json), then the project's .zero/config.json. */
export function configPaths(cwd: string, env: NodeJS.ProcessEnv): string[] {
  const configHome = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return [join(configHome, 'zero', 'config.json'), join(cwd, '.zero', 'config.json')];
}

function invalid(file: string, problem: string): ProviderError {
  return new ProviderError(`Invalid config file ${file}: ${problem}`);
}

const ignored = (file: string, what: string, problem: string) => `Config file ${file}: ${what} is ignored and the run goes on without it: ${problem}`;

const optionalString = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

/** The first of several spellings (camelCase, snake_case) that is present. */
const pick = (fields: Record<string, unknown>, ...names: string[]) => names.map((name) => fields[name]).find((value) => value !== undefined && value !== null && value !== '');

/** The kind as Zero reads it (provider_kind, providerKind, then provider; any case); a baseURL alone means openai-compatible. */
function kindOf(fields: Record<string, unknown>, baseURL?: string): unknown {
  const kind = pick(fields, 'provider_kind', 'providerKind', 'provider');
  if (typeof kind === 'string') return kind.trim().toLowerCase();
  return kind === undefined && baseURL ? 'openai-compatible' : kind;
}

/** A mistake in the kind or the baseURL (Zero refuses an unknown kind and a -compatible one without a baseURL too). */
function mistake(kind: unknown, baseURL?: string): string | undefined {
  const kinds = PROFILE_KINDS.join(', ');
  if (kind === undefined) return `it has neither a provider kind nor a baseURL: set provider to one of ${kinds}.`;
  if (typeof kind !== 'string' || !ZERO_KINDS.includes(kind)) return `provider must be one of ${kinds}, not ${JSON.stringify(kind)}.`;
  if (kind.endsWith('-compatible') && !baseURL) return `an ${kind} profile needs a baseURL, the address of its server.`;
  return undefined;
}

type Key = { apiKey?: string; apiKeyEnv?: string; stored: boolean; baseURL?: string };

/** Why a profile Zero accepts cannot run here: a kind zero-stream has no provider for, or a key it cannot get. */
function unusableHere(kind: string, key: Key, env: NodeJS.ProcessEnv): string | undefined {
  if (!(PROFILE_KINDS as readonly string[]).includes(kind)) {
    return `zero-stream has no provider for ${kind} profiles, only for ${PROFILE_KINDS.join(', ')}: choose another profile with --provider NAME, or change this one's provider to one of those${kind === 'google' ? GEMINI_ROUTE : ''}.`;
  }
  if (key.apiKey) return undefined;
  if (key.apiKeyEnv) return `apiKeyEnv names ${key.apiKeyEnv}, which is not set.`;
  if (!key.stored) return undefined;
  // Only a profile without a baseURL takes the provider's own variable: a key from the environment never goes to a profile's URL.
  const variable = `${envPrefix(kind as ProfileKind)}_API_KEY`;
  if (!key.baseURL && env[variable]) return undefined;
  const or = key.baseURL ? '' : `, or set ${variable}`;
  return `its key is in Zero's encrypted credential store, which zero-stream cannot read: set apiKeyEnv to the name of an environment variable that holds the key${or}.`;
}

/** A profile as Zero writes it, or the warning for an entry nothing can select. */
function readEntry(entry: unknown, index: number, file: string, env: NodeJS.ProcessEnv): Profile | string {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return ignored(file, `providers[${index}]`, 'it is not an object.');
  const fields = entry as Record<string, unknown>;
  const name = optionalString(fields.name);
  if (!name) return ignored(file, `providers[${index}]`, 'it has no name, so nothing can select it.');
  const baseURL = optionalString(pick(fields, 'baseURL', 'baseUrl', 'base_url'));
  const apiKeyEnv = optionalString(pick(fields, 'apiKeyEnv', 'api_key_env'));
  const apiKey = optionalString(pick(fields, 'apiKey', 'api_key')) ?? (apiKeyEnv ? optionalString(env[apiKeyEnv]) : undefined);
  const kind = kindOf(fields, baseURL);
  const misconfigured = mistake(kind, baseURL);
  const problem = misconfigured ?? unusableHere(kind as string, { apiKey, apiKeyEnv, baseURL, stored: pick(fields, 'apiKeyStored', 'api_key_stored') === true }, env);
  return {
    name,
    provider: problem ? 'openai' : (kind as ProfileKind),
    baseURL,
    model: optionalString(pick(fields, 'model', 'model_id', 'modelId')),
    apiKey,
    apiKeyEnv,
    file,
    ...(pick(fields, 'supportsImages', 'supports_images') === false ? { acceptsImages: false as const } : {}),
    ...(problem ? { problem } : {}),
    ...(misconfigured ? { warnWhenUnselected: true as const } : {}),
  };
}

/** The error for selecting a profile that cannot be used. */
export function unusableProfile(profile: Profile): ProviderError {
  return new ProviderError(`Config file ${profile.file}: profile "${profile.name}" cannot be used: ${profile.problem}`);
}

/** One config file, or undefined when it does not exist. */
async function readConfigFile(file: string): Promise<Record<string, unknown> | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw invalid(file, (error as Error).message);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalid(file, `not valid JSON (${(error as Error).message}).`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalid(file, 'expected a JSON object.');
  return value as Record<string, unknown>;
}

/**
 * The config files that Zero's users and wrappers already write, merged: the
 * project file wins over the user file, profile by profile.
 */
export async function loadConfig(cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<ZeroConfig> {
  const config: ZeroConfig = { profiles: new Map(), warnings: [] };
  for (const file of configPaths(cwd, env)) {
    const raw = await readConfigFile(file);
    if (!raw) continue;
    if (raw.providers !== undefined && !Array.isArray(raw.providers)) throw invalid(file, 'providers must be an array.');
    ((raw.providers as unknown[] | undefined) ?? []).forEach((entry, index) => {
      const profile = readEntry(entry, index, file, env);
      if (typeof profile === 'string') config.warnings.push(profile);
      else config.profiles.set(profile.name, profile);
    });
    if (raw.activeProvider !== undefined) {
      if (typeof raw.activeProvider !== 'string' || !raw.activeProvider) throw invalid(file, 'activeProvider must be a non-empty string.');
      config.activeProvider = { name: raw.activeProvider, file };
    }
    if (raw.maxTurns !== undefined) {
      if (!Number.isInteger(raw.maxTurns) || (raw.maxTurns as number) < 1) throw invalid(file, 'maxTurns must be a positive integer.');
      config.maxTurns = raw.maxTurns as number;
    }
  }
  // Only now: a profile of the project file replaces the user file's, problem and all.
  for (const profile of config.profiles.values()) {
    if (profile.warnWhenUnselected) config.warnings.push(ignored(profile.file, `profile "${profile.name}"`, profile.problem ?? ''));
  }
  return config;
}

/**
 * The config files as they are, user file first, for the sections other modules read (`sandbox`,
 * `shellEnvironment`: lib/cli/shell-config.ts); a file that is not a JSON object fails as loadConfig does.
 */
export async function readConfigFiles(cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<{ file: string; project: boolean; fields: Record<string, unknown> }[]> {
  const [user, project] = configPaths(cwd, env);
  const files: { file: string; project: boolean; fields: Record<string, unknown> }[] = [];
  for (const file of [user, project]) {
    const fields = await readConfigFile(file);
    if (fields) files.push({ file, project: file === project, fields });
  }
  return files;
}
