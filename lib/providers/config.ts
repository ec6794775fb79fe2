import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ProviderError } from '../errors.js';

export const PROFILE_KINDS = ['openai', 'anthropic', 'openai-compatible'] as const;
export type ProfileKind = (typeof PROFILE_KINDS)[number];

/** One entry of `providers` in a config file; unknown fields are ignored. */
export type Profile = { name: string; provider: ProfileKind; baseURL?: string; model?: string; apiKey?: string; file: string };

export type ZeroConfig = {
  activeProvider?: { name: string; file: string };
  profiles: Map<string, Profile>;
  maxTurns?: number;
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

function readProfile(entry: unknown, index: number, file: string): Profile {
  const { name, provider, baseURL, model, apiKey } = (entry ?? {}) as Record<string, unknown>;
  if (typeof name !== 'string' || !name) throw invalid(file, `providers[${index}].name must be a non-empty string.`);
  if (!PROFILE_KINDS.includes(provider as ProfileKind)) {
    throw invalid(file, `providers[${index}] ("${name}"): provider must be one of ${PROFILE_KINDS.join(', ')}, not ${JSON.stringify(provider)}.`);
  }
  return { name, provider: provider as ProfileKind, baseURL: optionalString(baseURL), model: optionalString(model), apiKey: optionalString(apiKey), file };
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
  const config: ZeroConfig = { profiles: new Map() };
  for (const file of configPaths(cwd, env)) {
    const raw = await readConfigFile(file);
    if (!raw) continue;
    if (raw.providers !== undefined && !Array.isArray(raw.providers)) throw invalid(file, 'providers must be an array.');
    ((raw.providers as unknown[] | undefined) ?? []).forEach((entry, index) => {
      const profile = readProfile(entry, index, file);
      config.profiles.set(profile.name, profile);
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
  const active = config.activeProvider;
  if (active && !config.profiles.has(active.name)) {
    throw invalid(active.file, `activeProvider "${active.name}" names no profile in providers (known: ${[...config.profiles.keys()].join(', ') || 'none'}).`);
  }
  return config;
}
