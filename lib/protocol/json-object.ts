/** A JSON object: not null, not an array. (Its own module: what checks only this need not load ajv.) */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
