// `baton config check`: steps 1–5 of loading, every problem printed one per line, exit code 1 on errors.
import { loadConfigFile } from './load.ts';

export async function configCheck(
  path: string,
  env: Record<string, string | undefined>,
  out: (line: string) => void,
): Promise<number> {
  const result = await loadConfigFile(path, env);
  for (const diagnostic of result.diagnostics) out(diagnostic.message);
  const hasErrors = result.fatal || result.diagnostics.some((d) => d.severity === 'error');
  return hasErrors ? 1 : 0;
}
