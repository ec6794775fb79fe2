import { resolve } from 'node:path';
import { ProviderError, UsageError } from '../errors.js';
import { envPrefix, PROFILE_KINDS, unusableProfile, type Profile, type ProfileKind, type ZeroConfig } from './config.js';
import { customBaseURL } from './profile.js';
import { mayWriteThinkTags } from './think-tags.js';
import type { ScriptReading } from './scripted.js';
import type { Provider, ProviderOptions } from './types.js';
import { withSdk } from './sdk.js';
import { tablePrice, type Price } from './prices.js';

export type ProviderSettings = {
  /** --provider; else ZERO_PROVIDER. A provider kind, `scripted`, or a profile name from the config files. */
  name?: string;
  /** --model */
  model?: string;
  /** --script; else ZERO_SCRIPT. Relative paths resolve against cwd. */
  script?: string;
  cwd: string;
  env?: NodeJS.ProcessEnv;
  config?: ZeroConfig;
  /** --max-retries, --timeout, --idle-timeout, --reasoning-budget, -r/--reasoning-effort */
  limits?: Pick<ProviderOptions, 'maxRetries' | 'timeoutMs' | 'idleTimeoutMs' | 'reasoningBudget' | 'reasoningEffort'>;
};

export type ProviderChoice = { kind: 'scripted'; script: string; model?: string } | { kind: ProfileKind; options: ProviderOptions };

export const PROVIDER_NAMES = ['scripted', ...PROFILE_KINDS];

export const NO_PROVIDER_MESSAGE =
  'No model provider is configured. Set OPENAI_API_KEY or ANTHROPIC_API_KEY, or OPENAI_BASE_URL for a local OpenAI-compatible server ' +
  '(Ollama, LM Studio, vLLM, llama.cpp); or choose one with --provider NAME (or ZERO_PROVIDER=NAME) or an activeProvider in ~/.config/zero/config.json. ' +
  'For the offline scripted provider use --provider scripted --script PATH (or ZERO_SCRIPT=PATH).';

const DEFAULT_MODELS: Record<ProfileKind, string> = { openai: 'gpt-4.1', 'openai-compatible': 'gpt-4.1', anthropic: 'claude-sonnet-4-6', 'anthropic-compatible': 'claude-sonnet-4-6' };

const ENV_PROFILE_KINDS = ['openai', 'anthropic'] as const;

/**
 * OPENAI_MODEL / ANTHROPIC_MODEL as Zero applies them (its applyEnv): to the
 * selected profile when its kind, as written, is `openai` / `anthropic`, or
 * when it is named so and no profile has that kind; there they win over the
 * profile's own model. (ANTHROPIC_MODEL is applied after OPENAI_MODEL.)
 */
function environmentModel(profile: Profile, profiles: Map<string, Profile>, env: NodeJS.ProcessEnv): string | undefined {
  const applies = (kind: string) => profile.writtenKind === kind || (profile.name === kind && ![...profiles.values()].some((other) => other.writtenKind === kind));
  return ENV_PROFILE_KINDS.filter(applies)
    .map((kind) => env[`${kind.toUpperCase()}_MODEL`]?.trim())
    .filter(Boolean)
    .at(-1);
}

/** Zero's parseThinkTags default: on for a model named like one that writes `<think>` tags, on an OpenAI-compatible server only. */
function parsesThinkTags(kind: ProfileKind, baseURL: string | undefined, model: string, profile?: Profile): boolean {
  return profile?.parseThinkTags ?? ((kind === 'openai-compatible' || (kind === 'openai' && baseURL !== undefined)) && mayWriteThinkTags(model));
}

/**
 * The options of a network provider. A key from the environment is never sent
 * to a base URL that came from a profile: a local server does not get your
 * OpenAI key.
 */
function networkOptions(kind: ProfileKind, settings: ProviderSettings, env: NodeJS.ProcessEnv, profile?: Profile): ProviderOptions {
  const prefix = envPrefix(kind);
  const baseURL = profile ? profile.baseURL : customBaseURL(kind, env[`${prefix}_BASE_URL`] || undefined);
  const apiKey = profile?.apiKey ?? (profile?.baseURL ? undefined : env[`${prefix}_API_KEY`]) ?? undefined;
  const fromEnvironment = profile && environmentModel(profile, settings.config?.profiles ?? new Map(), env);
  const model = settings.model ?? fromEnvironment ?? profile?.model ?? profile?.presetModel ?? env[`${prefix}_MODEL`] ?? DEFAULT_MODELS[kind];
  const where = profile ? `profile "${profile.name}" in ${profile.file}` : 'the environment';
  if (kind.endsWith('-compatible') && !baseURL) throw new ProviderError(`The ${kind} provider needs a base URL: set ${prefix}_BASE_URL${profile ? ` or baseURL in ${where}` : ''}.`);
  // A server at a base URL of your own may take no key; Anthropic's own API always does.
  if (!apiKey && (kind === 'anthropic' || (kind === 'openai' && !baseURL))) {
    throw new ProviderError(`The ${kind} provider needs an API key: set ${prefix}_API_KEY${profile ? ` or apiKey in ${where}` : ''}.`);
  }
  const images = profile?.acceptsImages === false ? { acceptsImages: false } : {};
  const { authHeader, authScheme, authHeaderValue, customHeaders } = profile ?? {};
  const auth = authHeader || authScheme || authHeaderValue || customHeaders ? { auth: { authHeader, authScheme, authHeaderValue, customHeaders } } : {};
  const thinkTags = kind.startsWith('openai') && parsesThinkTags(kind, baseURL, model, profile) ? { parseThinkTags: true } : {};
  const pricing = profile?.pricing ? { pricing: profile.pricing } : {};
  return { ...settings.limits, model, apiKey, baseURL, label: kind, ...images, ...auth, ...thinkTags, ...pricing };
}

function scripted(settings: ProviderSettings, env: NodeJS.ProcessEnv): ProviderChoice {
  const script = settings.script ?? env.ZERO_SCRIPT;
  if (!script) throw new UsageError('The scripted provider needs a script: pass --script PATH or set ZERO_SCRIPT=PATH.');
  return { kind: 'scripted', script: resolve(settings.cwd, script), model: settings.model };
}

function fromProfile(profile: Profile, settings: ProviderSettings, env: NodeJS.ProcessEnv): ProviderChoice {
  if (profile.problem) throw unusableProfile(profile);
  return { kind: profile.provider, options: networkOptions(profile.provider, settings, env, profile) };
}

/** Which provider runs: --provider > ZERO_PROVIDER > the config files' activeProvider > whichever key is set. */
export function chooseProvider(settings: ProviderSettings): ProviderChoice {
  const env = settings.env ?? process.env;
  const profiles = settings.config?.profiles ?? new Map<string, Profile>();
  const asked = (settings.name ?? env.ZERO_PROVIDER)?.trim();
  if (asked) {
    const profile = profiles.get(asked);
    if (profile) return fromProfile(profile, settings, env);
    const kind = asked.toLowerCase();
    if (kind === 'scripted') return scripted(settings, env);
    if ((PROFILE_KINDS as readonly string[]).includes(kind)) return { kind: kind as ProfileKind, options: networkOptions(kind as ProfileKind, settings, env) };
    const known = new Set([...PROVIDER_NAMES, ...profiles.keys()]);
    throw new UsageError(`Unknown provider "${asked}". Available providers: ${[...known].join(', ')}.`);
  }
  const active = settings.config?.activeProvider;
  if (active) {
    const profile = profiles.get(active.name);
    if (!profile) {
      throw new ProviderError(`Invalid config file ${active.file}: activeProvider "${active.name}" names no profile in providers (known: ${[...profiles.keys()].join(', ') || 'none'}).`);
    }
    return fromProfile(profile, settings, env);
  }
  if (env.OPENAI_API_KEY || env.OPENAI_BASE_URL) return { kind: 'openai', options: networkOptions('openai', settings, env) };
  if (env.ANTHROPIC_API_KEY) return { kind: 'anthropic', options: networkOptions('anthropic', settings, env) };
  throw new ProviderError(NO_PROVIDER_MESSAGE);
}

/**
 * The chosen provider, its code loaded only now, so `zero --help` never pays for an SDK. `reading` bounds the
 * script the scripted provider reads (--max-line-bytes) and stops that read when aborted.
 */
export async function createProvider(choice: ProviderChoice, reading: ScriptReading = {}): Promise<Provider> {
  switch (choice.kind) {
    case 'scripted': {
      const { createScriptedProvider } = await import('./scripted.js');
      return createScriptedProvider({ ...choice, ...reading });
    }
    case 'anthropic':
    case 'anthropic-compatible': {
      const { createAnthropicProvider } = await withSdk('@anthropic-ai/sdk', choice.kind, () => import('./anthropic.js'));
      return createAnthropicProvider(choice.options);
    }
    default: {
      const { createOpenAIProvider } = await withSdk('openai', choice.kind, () => import('./openai.js'));
      return createOpenAIProvider(choice.options);
    }
  }
}

/** What the chosen provider's model costs: the profile's `pricing`, else the price table's; undefined when neither knows. */
export function priceOf(choice: ProviderChoice, model: string): Price | undefined {
  return (choice.kind === 'scripted' ? undefined : choice.options.pricing) ?? tablePrice(model);
}

/** Environment variables that hold credentials a provider may load; their values are redacted everywhere. */
export const CREDENTIAL_ENV_VARS = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'ZERO_API_KEY'];

/**
 * The credentials in use: keys in the environment, the key the chosen profile
 * read, and every apiKey the config files hold, inline or through apiKeyEnv,
 * with every authHeaderValue and custom header value (any profile can be
 * chosen with --provider, so each is a credential in use, active or not).
 */
export function credentialsInUse(env: NodeJS.ProcessEnv = process.env, choice?: ProviderChoice, config?: ZeroConfig): string[] {
  const fromEnv = CREDENTIAL_ENV_VARS.map((name) => env[name]?.trim() ?? '');
  const fromChoice = choice && choice.kind !== 'scripted' ? [choice.options.apiKey ?? ''] : [];
  const fromConfig = [...(config?.profiles.values() ?? [])].flatMap((profile) => [
    profile.apiKey ?? '',
    (profile.apiKeyEnv && env[profile.apiKeyEnv]?.trim()) || '',
    // the token alone too: a scheme before it ("Token abc…") does not always travel with it
    ...(profile.authHeaderValue ? [profile.authHeaderValue, profile.authHeaderValue.split(/\s+/).at(-1)!] : []),
    ...Object.values(profile.customHeaders ?? {}),
  ]);
  return [...new Set([...fromEnv, ...fromChoice, ...fromConfig])].filter((value) => value.length >= 8);
}
