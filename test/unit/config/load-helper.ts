// Shared helpers for the config unit tests: load inline TOML and read the diagnostic texts.
import { type LoadResult, loadConfigText } from '../../../src/config/index.ts';

export const BASE_DIR = '/srv/baton';

/** A minimal valid file, so a test can add the one thing it checks. */
export const MINIMAL = `
schema_version = 3

[risk_profiles.p]

[agents.a]
risk_profile = "p"
`;

export function load(text: string, env: Record<string, string | undefined> = {}): LoadResult {
  return loadConfigText(text, env, { baseDir: BASE_DIR });
}

export const messages = (r: LoadResult): string[] => r.diagnostics.map((d) => d.message);
export const errors = (r: LoadResult): string[] =>
  r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message);
export const warnings = (r: LoadResult): string[] =>
  r.diagnostics.filter((d) => d.severity === 'warning').map((d) => d.message);

/** The loaded config, failing the test when loading was fatal. */
export function configOf(r: LoadResult) {
  if (r.config === null) throw new Error(`fatal load: ${messages(r).join('\n')}`);
  return r.config;
}
