// Inbound text made well-formed UTF-16: a lone surrogate cannot be encoded as UTF-8 (Redis Lua's cjson, the
// model's JSON, platform APIs all reject it), so it becomes U+FFFD before anything stores or forwards it.

/** `value` with every string in it (nested objects and arrays included) made well-formed. */
export function wellFormed<T>(value: T): T {
  if (typeof value === 'string') return value.toWellFormed() as T;
  if (Array.isArray(value)) return value.map((v) => wellFormed(v)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k.toWellFormed()] = wellFormed(v);
    return out as T;
  }
  return value;
}
