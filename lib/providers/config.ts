import { ProviderError } from '../errors.js';
import { fieldOf, invalidConfig, readConfigLayers, type ConfigLayer } from './config-files.js';
import { projectRefusal } from './guard.js';
import { resolveProfile, type Profile } from './profile.js';
import { mergeProfileFields, readProfileFields, type ProfileFields } from './profile-fields.js';

export { configPaths, type ConfigLayer } from './config-files.js';
export { envPrefix, PROFILE_KINDS, type Profile, type ProfileKind } from './profile.js';

export type ZeroConfig = {
  /** Set by a file, or the one profile there is when no file sets it. */
  activeProvider?: { name: string; file: string };
  profiles: Map<string, Profile>;
  maxTurns?: number;
  /** Mistakes in the files that do not stop a run (in a profile nobody selected, an entry nothing can select): `warning` events. */
  warnings: string[];
  /** The files as read, the user's first: each section's reader takes its values from here (configSection). */
  layers: ConfigLayer[];
};

/** A section's value in each file that sets it, the user's first (an empty list when none does). */
export type SectionLayers = { scope: ConfigLayer['scope']; file: string; value: unknown }[];

/**
 * One top-level section of the config files (`sandbox`, `mcpServers`, …),
 * its name matched in any case as Zero does, from each file that sets it.
 * The layers are not merged here: Zero merges each section with a rule of
 * its own, and a project file may not widen some of them (sandbox write
 * roots, network access), so the section's reader applies its rule.
 */
export function configSection(config: Pick<ZeroConfig, 'layers'>, name: string): SectionLayers {
  return config.layers.map(({ scope, file, document }) => ({ scope, file, value: fieldOf(document, name) })).filter(({ value }) => value !== undefined);
}

const ignored = (file: string, what: string, problem: string) => `Config file ${file}: ${what} is ignored and the run goes on without it: ${problem}`;

/** The error for selecting a profile that cannot be used. */
export function unusableProfile(profile: Profile): ProviderError {
  return new ProviderError(`Config file ${profile.file}: profile "${profile.name}" cannot be used: ${profile.problem}`);
}

/** activeProvider: empty, blank or null is not set. */
function activeName(layer: ConfigLayer): string | undefined {
  const value = fieldOf(layer.document, 'activeProvider');
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidConfig(layer.file, `activeProvider must be a string (a profile's name), not ${JSON.stringify(value)}.`);
  return value.trim() || undefined;
}

/** maxTurns: 0 or null is not set (Zero's default then). */
function maxTurns(layer: ConfigLayer): number | undefined {
  const value = fieldOf(layer.document, 'maxTurns');
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || (value as number) < 0) throw invalidConfig(layer.file, 'maxTurns must be a whole number (0 or more; 0 means the default).');
  return (value as number) || undefined;
}

function providerEntries(layer: ConfigLayer): unknown[] {
  const value = fieldOf(layer.document, 'providers');
  if (value !== undefined && !Array.isArray(value)) throw invalidConfig(layer.file, 'providers must be an array.');
  return value ?? [];
}

type Named = ProfileFields & { name: string };

/**
 * A file's entries by name, those of the same name merged in order. An entry
 * without a name is the profile named by activeProvider (this file's or an
 * earlier one's), else `openai`, as in Zero.
 */
function layerProfiles(layer: ConfigLayer, active: string | undefined, warnings: string[]): Map<string, Named> {
  const profiles = new Map<string, Named>();
  providerEntries(layer).forEach((entry, index) => {
    const fields = readProfileFields(entry, layer.file);
    if (!fields) return void warnings.push(ignored(layer.file, `providers[${index}]`, 'it is not an object.'));
    const name = fields.name ?? active ?? 'openai';
    const earlier = profiles.get(name);
    profiles.set(name, earlier ? { ...mergeProfileFields(earlier, fields), name } : { ...fields, name });
  });
  return profiles;
}

/**
 * The config files Zero's users and wrappers already write, merged as Zero
 * merges them: a project profile over the user's profile of the same name,
 * field by field, unless the credential guard refuses it.
 */
export async function loadConfig(cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<ZeroConfig> {
  const layers = await readConfigLayers(cwd, env);
  const config: ZeroConfig = { profiles: new Map(), warnings: [], layers };
  const merged = new Map<string, Named>();
  const refusals = new Map<string, string>();
  let active: ZeroConfig['activeProvider'];
  for (const layer of layers) {
    const name = activeName(layer);
    if (name) active = { name, file: layer.file };
    config.maxTurns = maxTurns(layer) ?? config.maxTurns;
    for (const [profileName, fields] of layerProfiles(layer, active?.name, config.warnings)) {
      const user = merged.get(profileName);
      const candidate = user ? { ...mergeProfileFields(user, fields), name: profileName } : fields;
      const refusal = layer.scope === 'project' ? projectRefusal(fields, user, candidate) : undefined;
      if (refusal) refusals.set(profileName, refusal);
      merged.set(profileName, candidate);
    }
  }
  for (const [name, fields] of merged) {
    const profile = resolveProfile(fields, env);
    const refusal = refusals.get(name);
    config.profiles.set(name, refusal ? { ...profile, provider: 'openai', problem: refusal, warnWhenUnselected: true } : profile);
  }
  for (const profile of config.profiles.values()) {
    if (profile.warnWhenUnselected) config.warnings.push(ignored(profile.file, `profile "${profile.name}"`, profile.problem ?? ''));
  }
  const only = config.profiles.size === 1 ? [...config.profiles.values()][0] : undefined;
  config.activeProvider = active ?? (only && { name: only.name, file: only.file });
  return config;
}

/**
 * The config files as they are, user file first, for the sections other modules read (`sandbox`,
 * `shellEnvironment`: lib/cli/shell-config.ts); a file that is not a JSON object fails as loadConfig does.
 */
export async function readConfigFiles(cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<{ file: string; project: boolean; fields: Record<string, unknown> }[]> {
  return (await readConfigLayers(cwd, env)).map(({ scope, file, document }) => ({ file, project: scope === 'project', fields: document }));
}
