import { firstField, isConfigObject, type ConfigObject } from './config-files.js';
import type { Price } from './prices.js';

/**
 * One entry of `providers` as written, before presets and defaults: every
 * field Zero reads, in any of its spellings (camelCase or snake_case, any
 * case), trimmed; empty strings and `null` are absent. Unknown fields are ignored.
 */
export type ProfileFields = {
  name?: string;
  /** `provider_kind`, `providerKind` or `provider`, in that order, lower case: as written, not yet checked. */
  kind?: string;
  catalogID?: string;
  baseURL?: string;
  apiKey?: string;
  apiKeyEnv?: string;
  apiKeyStored?: boolean;
  authHeader?: string;
  authScheme?: string;
  authHeaderValue?: string;
  /** Replaced whole by a later layer that sets it, `{}` included (which clears them). */
  customHeaders?: Record<string, string>;
  model?: string;
  parseThinkTags?: boolean;
  supportsImages?: boolean;
  /** What the profile's model costs (a gateway's own prices, a local model at 0): wins over the price table. */
  pricing?: Price;
  /** Fields of the wrong type, each a sentence: the profile is a mistake in the file. */
  mistakes: string[];
  /** The file that set the last field. */
  file: string;
};

type StringField = 'name' | 'catalogID' | 'baseURL' | 'apiKey' | 'apiKeyEnv' | 'authHeader' | 'authScheme' | 'authHeaderValue' | 'model';

/** Each field and its spellings, first spelling first (Zero takes the first that is not empty). */
const STRING_FIELDS: [StringField, ...string[]][] = [
  ['name'],
  ['catalogID', 'catalog_id'],
  ['baseURL', 'base_url'],
  ['apiKey', 'api_key'],
  ['apiKeyEnv', 'api_key_env'],
  ['authHeader', 'auth_header'],
  ['authScheme', 'auth_scheme'],
  ['authHeaderValue', 'auth_header_value'],
  ['model', 'model_id', 'modelId'],
];

const BOOLEAN_FIELDS: ['apiKeyStored' | 'parseThinkTags' | 'supportsImages', ...string[]][] = [
  ['apiKeyStored', 'api_key_stored'],
  ['parseThinkTags', 'parse_think_tags'],
  ['supportsImages', 'supports_images'],
];

const shown = (value: unknown) => JSON.stringify(value)?.slice(0, 40) ?? String(value);

function readString(fields: ConfigObject, spellings: string[], mistakes: string[]): string | undefined {
  const value = firstField(fields, ...spellings);
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    mistakes.push(`${spellings[0]} must be a string, not ${shown(value)}.`);
    return undefined;
  }
  return value.trim() || undefined;
}

function readHeaders(fields: ConfigObject, mistakes: string[]): Record<string, string> | undefined {
  const value = firstField(fields, 'customHeaders', 'custom_headers');
  if (value === undefined) return undefined;
  if (!isConfigObject(value) || Object.values(value).some((header) => typeof header !== 'string')) {
    mistakes.push(`customHeaders must be an object of header names and string values, not ${shown(value)}.`);
    return undefined;
  }
  return Object.fromEntries(Object.entries(value as Record<string, string>).map(([name, header]) => [name.trim(), header.trim()]).filter(([name]) => name));
}

const PRICE_FIELDS: [keyof Price, string, boolean][] = [
  ['inputPerMTok', 'input_per_mtok', true],
  ['outputPerMTok', 'output_per_mtok', true],
  ['cachedInputPerMTok', 'cached_input_per_mtok', false],
];

/** `pricing: {inputPerMTok, outputPerMTok, cachedInputPerMTok?}`: US dollars per million tokens, 0 or more. */
function readPricing(fields: ConfigObject, mistakes: string[]): Price | undefined {
  const value = firstField(fields, 'pricing');
  if (value === undefined) return undefined;
  const problem = `pricing must be an object of inputPerMTok, outputPerMTok and optionally cachedInputPerMTok (US dollars per million tokens, 0 or more), not ${shown(value)}.`;
  if (!isConfigObject(value)) return void mistakes.push(problem);
  const pricing: Partial<Price> = {};
  for (const [field, snake, required] of PRICE_FIELDS) {
    const number = firstField(value, field, snake);
    if (number === undefined && !required) continue;
    if (typeof number !== 'number' || !Number.isFinite(number) || number < 0) return void mistakes.push(problem);
    pricing[field] = number;
  }
  return pricing as Price;
}

/** An entry of `providers`, or undefined when it is not an object. */
export function readProfileFields(entry: unknown, file: string): ProfileFields | undefined {
  if (!isConfigObject(entry)) return undefined;
  const mistakes: string[] = [];
  const profile: ProfileFields = { mistakes, file };
  for (const [field, ...spellings] of STRING_FIELDS) {
    const value = readString(entry, [field, ...spellings], mistakes);
    if (value !== undefined) profile[field] = value;
  }
  const kind = readString(entry, ['provider_kind', 'providerKind', 'provider'], mistakes);
  if (kind) profile.kind = kind.toLowerCase();
  for (const [field, ...spellings] of BOOLEAN_FIELDS) {
    const value = firstField(entry, field, ...spellings);
    if (typeof value === 'boolean') profile[field] = value;
    else if (value !== undefined) mistakes.push(`${field} must be true or false, not ${shown(value)}.`);
  }
  const headers = readHeaders(entry, mistakes);
  if (headers) profile.customHeaders = headers;
  const pricing = readPricing(entry, mistakes);
  if (pricing) profile.pricing = pricing;
  return profile;
}

/**
 * A later layer's entry over an earlier one of the same name, field by field:
 * what the later one sets wins, what it leaves out is kept (Zero's mergeProfile,
 * which also leaves apiKeyStored to the first layer that named the profile).
 */
export function mergeProfileFields(base: ProfileFields, next: ProfileFields): ProfileFields {
  const { mistakes, file, apiKeyStored: _stored, ...set } = next;
  return { ...base, ...set, mistakes: [...base.mistakes, ...mistakes], file };
}
