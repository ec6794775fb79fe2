/** How a profile says to authenticate, beyond its key (Zero's authHeader, authScheme, authHeaderValue, customHeaders). */
export type AuthSettings = {
  apiKey?: string;
  /** The header the key goes in, instead of the provider's own. */
  authHeader?: string;
  /** Put before the key (`Bearer`); `raw` or `none` sends the key alone. */
  authScheme?: string;
  /** The header's whole value, instead of one made from the key. */
  authHeaderValue?: string;
  /** Sent with every request; the auth header wins over one of the same name. */
  customHeaders?: Record<string, string>;
};

/** The header and scheme a provider authenticates with when the profile names none (Zero's defaults). */
export type AuthDefaults = { header: string; scheme: string };

/** The auth headers both SDKs set themselves: a header of ours that is not one of them must replace them. */
const SDK_AUTH_HEADERS = ['authorization', 'x-api-key'];

/**
 * The headers to give the SDK (`defaultHeaders`, which win over its own; `null` removes one of its own).
 * Nothing when the profile says nothing: the SDK then authenticates as it always does.
 */
export function requestHeaders(settings: AuthSettings, defaults: AuthDefaults): Record<string, string | null> {
  const headers: Record<string, string | null> = { ...settings.customHeaders };
  const custom = settings.authHeader?.trim();
  if (!custom && !settings.authScheme && !settings.authHeaderValue) return headers;
  const header = custom || defaults.header;
  // A header named by the profile takes the key as it is unless a scheme is named; the default header takes the default scheme.
  const scheme = settings.authScheme?.trim() || (custom ? '' : defaults.scheme);
  const fromKey = settings.apiKey && (scheme && !/^(raw|none)$/i.test(scheme) ? `${scheme} ${settings.apiKey}` : settings.apiKey);
  const value = settings.authHeaderValue?.trim() || fromKey;
  const same = (name: string) => name.toLowerCase() === header.toLowerCase();
  for (const name of Object.keys(headers)) if (same(name)) delete headers[name];
  for (const name of SDK_AUTH_HEADERS) if (!same(name) && !Object.keys(headers).some((given) => given.toLowerCase() === name)) headers[name] = null;
  headers[header] = value || null;
  return headers;
}
