import { ANTHROPIC_BASE_URL, CATALOG, OPENAI_BASE_URL, catalogEntry, sameBaseURL, type CatalogEntry } from './catalog.js';
import type { ProfileFields } from './profile-fields.js';
import type { Price } from './prices.js';

/** The kinds zero-stream runs: all of Zero's but google. */
export const PROFILE_KINDS = ['openai', 'anthropic', 'anthropic-compatible', 'openai-compatible'] as const;
export type ProfileKind = (typeof PROFILE_KINDS)[number];
const ZERO_KINDS: readonly string[] = [...PROFILE_KINDS, 'google'];

/** The way round the one Zero kind zero-stream cannot run. */
const GEMINI_ROUTE = ' (Gemini also speaks OpenAI: provider openai-compatible, baseURL https://generativelanguage.googleapis.com/v1beta/openai/)';

/** The prefix of a kind's environment variables (OPENAI_API_KEY, ANTHROPIC_BASE_URL, …). */
export const envPrefix = (kind: ProfileKind) => (kind.startsWith('anthropic') ? 'ANTHROPIC' : 'OPENAI');

/**
 * A profile of the config files, ready to run: its preset applied, its key
 * read. A profile that cannot be used keeps a `problem`, which is an error only
 * when the profile is selected.
 */
export type Profile = {
  name: string;
  provider: ProfileKind;
  /** The kind as the file wrote it (Zero's rule for OPENAI_MODEL and ANTHROPIC_MODEL looks at it). */
  writtenKind?: string;
  catalogID?: string;
  baseURL?: string;
  model?: string;
  /** The preset's model, for a profile that names none. */
  presetModel?: string;
  apiKey?: string;
  /** The environment variable the key was read from (`apiKeyEnv`, or the preset's). */
  apiKeyEnv?: string;
  authHeader?: string;
  authScheme?: string;
  authHeaderValue?: string;
  customHeaders?: Record<string, string>;
  parseThinkTags?: boolean;
  /** False when the profile says its model takes no images (`supportsImages: false`). */
  acceptsImages?: false;
  /** The profile's own prices (`pricing`), which win over the price table. */
  pricing?: Price;
  file: string;
  problem?: string;
  /** The problem is a mistake in the file, not a limit of zero-stream: a warning when the profile is not selected. */
  warnWhenUnselected?: true;
};

const preset = (fields: Pick<ProfileFields, 'catalogID'>) => (fields.catalogID ? catalogEntry(fields.catalogID) : undefined);

/** The kind: as written, else the preset's, else openai-compatible for a baseURL alone, else openai (as in Zero). */
export function kindOf(fields: Pick<ProfileFields, 'kind' | 'catalogID' | 'baseURL'>): string {
  return fields.kind ?? preset(fields)?.transport ?? (fields.baseURL ? 'openai-compatible' : 'openai');
}

/** The official API of a first-party kind. */
export function officialBaseURL(kind: string): string | undefined {
  return kind === 'openai' ? OPENAI_BASE_URL : kind === 'anthropic' ? ANTHROPIC_BASE_URL : undefined;
}

/** Where the profile's requests go: its baseURL, else its preset's, else its kind's official API. */
export function endpointOf(fields: Pick<ProfileFields, 'kind' | 'catalogID' | 'baseURL'>): string | undefined {
  return fields.baseURL ?? preset(fields)?.baseURL ?? officialBaseURL(kindOf(fields));
}

/** A profile's own baseURL, unless it is its kind's official API (then the SDK's default is used, and the kind's own variable may hold the key). */
export const customBaseURL = (kind: string, baseURL: string | undefined) => (sameBaseURL(baseURL, officialBaseURL(kind)) ? undefined : baseURL);

/** A mistake in the kind, the baseURL or the preset: Zero refuses these too. */
function mistake(kind: string, baseURL: string | undefined, fields: ProfileFields, entry: CatalogEntry | undefined): string | undefined {
  const kinds = PROFILE_KINDS.join(', ');
  if (fields.mistakes.length > 0) return fields.mistakes.join(' ');
  if (fields.catalogID && !entry) return `catalogID ${JSON.stringify(fields.catalogID)} is not a preset zero-stream knows (${CATALOG.map((known) => known.id).join(', ')}).`;
  if (entry?.unsupported) return undefined;
  if (!ZERO_KINDS.includes(kind)) return `provider must be one of ${kinds}, not ${JSON.stringify(kind)}.`;
  if (kind.endsWith('-compatible') && !baseURL) return `an ${kind} profile needs a baseURL, the address of its server.`;
  return undefined;
}

type Key = { apiKey?: string; apiKeyEnv?: string; stored: boolean; baseURL?: string };

/** Why a profile Zero accepts cannot run here: a kind or preset zero-stream has no client for, a model it cannot guess, or a key it cannot get. */
function unusableHere(kind: string, key: Key, fields: ProfileFields, entry: CatalogEntry | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (entry?.unsupported) return `zero-stream cannot run the ${entry.name} preset (catalogID ${entry.id}): ${entry.unsupported}.`;
  if (!(PROFILE_KINDS as readonly string[]).includes(kind)) {
    return `zero-stream has no provider for ${kind} profiles, only for ${PROFILE_KINDS.join(', ')}: choose another profile with --provider NAME, or change this one's provider to one of those${kind === 'google' ? GEMINI_ROUTE : ''}.`;
  }
  if (entry && !entry.model && !fields.model) return `the ${entry.name} preset has no default model: set model to the name the server serves its model under.`;
  if (key.apiKey) return undefined;
  if (key.apiKeyEnv) return `apiKeyEnv names ${key.apiKeyEnv}, which is not set.`;
  if (!key.stored) return undefined;
  // Only a profile of the official API takes the provider's own variable: a key from the environment never goes to a profile's URL.
  const variable = `${envPrefix(kind as ProfileKind)}_API_KEY`;
  if (!key.baseURL && env[variable]) return undefined;
  const or = key.baseURL ? '' : `, or set ${variable}`;
  return `its key is in Zero's encrypted credential store, which zero-stream cannot read: set apiKeyEnv to the name of an environment variable that holds the key${or}.`;
}

/** The preset's key variable, for a profile that names none and talks to the preset's own server (as in Zero). */
function presetKeyVariable(fields: ProfileFields, entry: CatalogEntry | undefined): string | undefined {
  if (!entry?.keyVariables[0]) return undefined;
  return !fields.baseURL || sameBaseURL(fields.baseURL, entry.baseURL) ? entry.keyVariables[0] : undefined;
}

/** A profile's fields, merged over the layers, made ready to run (Zero's normalizeProvider). */
export function resolveProfile(fields: ProfileFields & { name: string }, env: NodeJS.ProcessEnv): Profile {
  const entry = preset(fields);
  const kind = kindOf(fields);
  const baseURL = customBaseURL(kind, fields.baseURL ?? entry?.baseURL);
  const apiKeyEnv = fields.apiKeyEnv ?? presetKeyVariable(fields, entry);
  const apiKey = fields.apiKey ?? (apiKeyEnv ? env[apiKeyEnv]?.trim() || undefined : undefined);
  const misconfigured = mistake(kind, baseURL, fields, entry);
  const problem = misconfigured ?? unusableHere(kind, { apiKey, apiKeyEnv, baseURL, stored: fields.apiKeyStored === true }, fields, entry, env);
  const { name, file, model, authHeader, authScheme, authHeaderValue, customHeaders, parseThinkTags, pricing } = fields;
  const optional = { writtenKind: fields.kind, catalogID: entry?.id, baseURL, model, presetModel: entry?.model, apiKey, apiKeyEnv, authHeader, authScheme, authHeaderValue, customHeaders, parseThinkTags, pricing };
  return {
    name,
    provider: problem ? 'openai' : (kind as ProfileKind),
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
    file,
    ...(fields.supportsImages === false ? { acceptsImages: false as const } : {}),
    ...(problem ? { problem } : {}),
    ...(misconfigured ? { warnWhenUnselected: true as const } : {}),
  };
}
