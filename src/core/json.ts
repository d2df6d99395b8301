// The one test of "a JSON object" (not null, not an array) that every reader of JSON shares. Pure.

export type JsonRecord = Record<string, unknown>;

/** A JSON object: not null, not an array. */
export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
