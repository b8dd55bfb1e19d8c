// The thinking setting a run carries (delegate.md §9.7); what each level does is src/agent/thinking/levels.ts.

/** The thinking setting a run carries; undefined on a run means no thinking effect. */
export interface ThinkingSetting {
  /** `default_level` as configured (matched trimmed and case-insensitively). */
  level: string;
  native: boolean;
  /** A bounded delegate keeps its own provider temperature: the caller's setting without the boost (§9.7). */
  keepTemperature?: boolean;
}
