import { UsageError } from '../errors.js';
import { envPrefix, type ZeroConfig } from '../providers/config.js';
import type { ProviderChoice } from '../providers/index.js';

// A key is sent as an HTTP header. One that cannot be (the README's `OPENAI_API_KEY=sk-…`, pasted as it is) made
// fetch fail every attempt with "Cannot convert argument to a ByteString": a connection error, after retries.

/** What no header value can carry: a character past Latin-1 (fetch refuses it), or a control character but tab. */
const NOT_IN_A_HEADER = /[^\t\x20-\x7e\x80-\xff]/;

/** Where the key came from, as the user would look for it: a variable, or a profile's apiKey. */
function keySource(kind: Exclude<ProviderChoice['kind'], 'scripted'>, key: string, env: NodeJS.ProcessEnv, config?: ZeroConfig): string {
  const variable = `${envPrefix(kind)}_API_KEY`;
  if (env[variable] === key) return variable;
  for (const profile of config?.profiles.values() ?? []) {
    if (profile.apiKey !== key) continue;
    return profile.apiKeyEnv && env[profile.apiKeyEnv]?.trim() === key ? profile.apiKeyEnv : `the apiKey of profile "${profile.name}" in ${profile.file}`;
  }
  return 'the API key';
}

/** A usage error, before any request, when the chosen provider's key cannot be sent; it names where the key came from, never the key. */
export function checkApiKey(choice: ProviderChoice, env: NodeJS.ProcessEnv, config?: ZeroConfig): void {
  if (choice.kind === 'scripted' || !choice.options.apiKey) return;
  const key = choice.options.apiKey;
  const bad = NOT_IN_A_HEADER.exec(key);
  if (!bad) return;
  const point = `U+${key.codePointAt(bad.index)!.toString(16).toUpperCase().padStart(4, '0')}`;
  throw new UsageError(
    `${keySource(choice.kind, key, env, config)} cannot be sent as an API key: its character ${bad.index + 1} (${point}) is not allowed in an HTTP header. ` +
      'Is it a placeholder from an example (such as sk-…)? Set it to the key itself.',
  );
}
