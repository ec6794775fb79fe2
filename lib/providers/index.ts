import { resolve } from 'node:path';
import { ProviderError, UsageError } from '../errors.js';
import type { Provider } from './types.js';

export type ProviderSettings = {
  /** --provider; else ZERO_PROVIDER. */
  name?: string;
  /** --model */
  model?: string;
  /** --script; else ZERO_SCRIPT. Relative paths resolve against cwd. */
  script?: string;
  cwd: string;
  env?: NodeJS.ProcessEnv;
};

// Each provider loads only when it runs, so `zero --help` never pays for an SDK.
const loaders: Record<string, (settings: ProviderSettings, env: NodeJS.ProcessEnv) => Promise<Provider>> = {
  async scripted(settings, env) {
    const script = settings.script ?? env.ZERO_SCRIPT;
    if (!script) throw new UsageError('The scripted provider needs a script: pass --script PATH or set ZERO_SCRIPT=PATH.');
    const { createScriptedProvider } = await import('./scripted.js');
    return createScriptedProvider({ script: resolve(settings.cwd, script), model: settings.model });
  },
};

export const PROVIDER_NAMES = Object.keys(loaders);

export const NO_PROVIDER_MESSAGE =
  'No model provider is configured. Choose one with --provider NAME (or ZERO_PROVIDER=NAME); ' +
  'for the offline scripted provider use --provider scripted --script PATH (or ZERO_SCRIPT=PATH).';

/** The provider the settings ask for: --provider, else ZERO_PROVIDER. */
export async function createProvider(settings: ProviderSettings): Promise<Provider> {
  const env = settings.env ?? process.env;
  const name = (settings.name ?? env.ZERO_PROVIDER)?.trim().toLowerCase();
  if (!name) throw new ProviderError(NO_PROVIDER_MESSAGE);
  const load = loaders[name];
  if (!load) throw new UsageError(`Unknown provider "${name}". Available providers: ${PROVIDER_NAMES.join(', ')}.`);
  return load(settings, env);
}

/** Environment variables that hold credentials a provider may load; their values are redacted everywhere. */
export const CREDENTIAL_ENV_VARS = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'ZERO_API_KEY'];

export function credentialsInUse(env: NodeJS.ProcessEnv = process.env): string[] {
  return CREDENTIAL_ENV_VARS.map((name) => env[name]?.trim() ?? '').filter((value) => value.length >= 8);
}
