import { catalogEntry, sameBaseURL } from './catalog.js';
import { endpointOf, kindOf, officialBaseURL } from './profile.js';
import type { ProfileFields } from './profile-fields.js';

/**
 * The project-config credential guard (Zero's resolver.go, validateProjectProviderMerge):
 * a `.zero/config.json` that came with a repository may not send a credential
 * it did not bring. A profile it names a key variable for (`apiKeyEnv`), or
 * whose key, auth header value or custom headers it inherits from the user's
 * profile of the same name, may only talk to the user's own base URL for that
 * profile, the official API of its kind, or its catalog preset's official server.
 */

/** The credentials of the user's profile the project's entry leaves in place, as the message names them. */
function inheritedCredentials(project: ProfileFields, merged: ProfileFields): { label: string; variable?: string }[] {
  const inherited: { label: string; variable?: string }[] = [];
  if (merged.apiKey && !project.apiKey) inherited.push({ label: 'the key (apiKey)' });
  if (merged.apiKeyEnv && !project.apiKeyEnv) inherited.push({ label: `the key variable (apiKeyEnv ${merged.apiKeyEnv})`, variable: merged.apiKeyEnv });
  if (merged.authHeaderValue && !project.authHeaderValue) inherited.push({ label: 'the auth header value (authHeaderValue)' });
  if (!project.customHeaders && Object.values(merged.customHeaders ?? {}).some(Boolean)) inherited.push({ label: 'the custom headers (customHeaders)' });
  return inherited;
}

/**
 * Why the project's entry for a profile is refused, or undefined when it may
 * stand. `project` is what the project file sets (its entries of that name
 * merged), `user` the user file's profile of that name if any, `merged` the
 * project's entry over the user's.
 */
export function projectRefusal(project: ProfileFields, user: ProfileFields | undefined, merged: ProfileFields & { name: string }): string | undefined {
  const endpoint = endpointOf(merged);
  if (endpoint === undefined) return undefined;
  const preset = merged.catalogID ? catalogEntry(merged.catalogID) : undefined;
  const usersOwn = user !== undefined && sameBaseURL(endpoint, endpointOf(user));
  const official = sameBaseURL(endpoint, officialBaseURL(kindOf(merged)));
  const presets = preset !== undefined && sameBaseURL(endpoint, preset.baseURL);
  const where = `${endpoint}, which is neither the base URL of your own profile "${merged.name}" nor the official API of its kind or catalog preset`;
  const rule = 'a project file may not send a credential it did not bring:';
  const fix = 'Remove that from the project file, or put the profile in your own config file if you trust this repository.';
  const presetVariable = (name: string | undefined) => presets && preset.keyVariables.some((known) => known.toLowerCase() === name?.toLowerCase());
  const variable = project.apiKeyEnv;
  if (variable && !usersOwn && !official && !presetVariable(variable)) return `${rule} it names apiKeyEnv ${variable} for ${where}. ${fix}`;
  const inherited = user ? inheritedCredentials(project, merged) : [];
  // A preset's server may have the user's credentials when the user chose that preset, or when they are only its own key variable.
  const samePreset = presets && user?.catalogID !== undefined && catalogEntry(user.catalogID)?.id === preset.id;
  const presetsOwn = samePreset || inherited.every((credential) => presetVariable(credential.variable));
  if (inherited.length > 0 && !usersOwn && !official && !presetsOwn) {
    return `${rule} it would send ${inherited.map((credential) => credential.label).join(', ')} of your profile "${merged.name}" (${user!.file}) to ${where}. ${fix}`;
  }
  return undefined;
}
