import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ProviderError } from '../errors.js';

export const PROFILE_KINDS = ['openai', 'anthropic', 'anthropic-compatible', 'openai-compatible'] as const;
export type ProfileKind = (typeof PROFILE_KINDS)[number];

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
  file: string;
  problem?: string;
};

export type ZeroConfig = {
  activeProvider?: { name: string; file: string };
  profiles: Map<string, Profile>;
  maxTurns?: number;
  /** Problems of the files that do not stop a run (a profile nobody selected that Zero itself would not accept): `warning` events. */
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

const optionalString = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

/** The first of several spellings (camelCase, snake_case) that is present. */
const pick = (fields: Record<string, unknown>, ...names: string[]) => names.map((name) => fields[name]).find((value) => value !== undefined && value !== null);

/** A profile as Zero writes it; undefined for an entry without a name, which nothing can select. */
function readProfile(entry: unknown, index: number, file: string, env: NodeJS.ProcessEnv): Profile | undefined {
  const fields = (entry !== null && typeof entry === 'object' && !Array.isArray(entry) ? entry : {}) as Record<string, unknown>;
  const name = fields.name;
  if (typeof name !== 'string' || !name) return undefined;
  const baseURL = optionalString(pick(fields, 'baseURL', 'baseUrl', 'base_url'));
  const model = optionalString(pick(fields, 'model', 'model_id', 'modelId'));
  const apiKeyEnv = optionalString(pick(fields, 'apiKeyEnv', 'api_key_env'));
  const rawKind = pick(fields, 'provider', 'provider_kind', 'providerKind');
  const kind = rawKind === undefined && baseURL ? 'openai-compatible' : rawKind;
  let apiKey = optionalString(pick(fields, 'apiKey', 'api_key'));
  let problem: string | undefined;
  if (apiKeyEnv && !apiKey) {
    apiKey = optionalString(env[apiKeyEnv]?.trim());
    if (!apiKey) problem = `apiKeyEnv names ${apiKeyEnv}, which is not set.`;
  }
  if (!apiKey && !apiKeyEnv && pick(fields, 'apiKeyStored', 'api_key_stored') === true) {
    problem = "its key is in Zero's encrypted credential store, which zero-stream cannot read: set apiKeyEnv to the name of an environment variable that holds the key, or set the provider's key variable.";
  }
  if (!PROFILE_KINDS.includes(kind as ProfileKind)) {
    problem = `provider must be one of ${PROFILE_KINDS.join(', ')}, not ${JSON.stringify(kind)}.`;
  }
  return { name, provider: (PROFILE_KINDS.includes(kind as ProfileKind) ? kind : 'openai') as ProfileKind, baseURL, model, apiKey, apiKeyEnv, file, ...(problem ? { problem } : {}) };
}

/** The error for selecting a profile that cannot be used. */
export function unusableProfile(profile: Profile): ProviderError {
  return invalid(profile.file, `profile "${profile.name}" cannot be used: ${profile.problem}`);
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
      const profile = readProfile(entry, index, file, env);
      if (profile) config.profiles.set(profile.name, profile);
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
  return config;
}
