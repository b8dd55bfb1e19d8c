// Inbound text made well-formed UTF-16: a lone surrogate cannot be encoded as UTF-8 (Redis Lua's cjson, the
// model's JSON, platform APIs all reject it), so it becomes U+FFFD before anything stores or forwards it.

/**
 * `value` with every string in it (nested objects and arrays included) made well-formed: `value` itself when
 * every string already is (nearly always; checking allocates nothing), else a plain copy.
 */
export function wellFormed<T>(value: T): T {
  return isWellFormed(value) ? value : copyWellFormed(value);
}

function isWellFormed(value: unknown): boolean {
  if (typeof value === 'string') return value.isWellFormed();
  if (Array.isArray(value)) return value.every(isWellFormed);
  if (value !== null && typeof value === 'object') {
    for (const k in value) {
      if (!Object.hasOwn(value, k)) continue;
      if (!k.isWellFormed() || !isWellFormed((value as Record<string, unknown>)[k])) return false;
    }
  }
  return true;
}

function copyWellFormed<T>(value: T): T {
  if (typeof value === 'string') return value.toWellFormed() as T;
  if (Array.isArray(value)) return value.map((v) => copyWellFormed(v)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k.toWellFormed()] = copyWellFormed(v);
    return out as T;
  }
  return value;
}
