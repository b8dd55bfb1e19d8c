// Line parsers for the deployment files: Dockerfile instructions by build stage, systemd unit keys.

export interface Instruction {
  keyword: string;
  args: string;
}

/** Stages of a Dockerfile (each starts at FROM); continuation lines joined, comments dropped. */
export function dockerStages(source: string): Instruction[][] {
  const logical: string[] = [];
  let pending = '';
  for (const raw of source.split('\n')) {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.startsWith('#')) continue; // a comment inside a continued instruction
    if (line.endsWith('\\')) pending += `${line.slice(0, -1).trim()} `;
    else {
      logical.push(`${pending}${line}`.trim());
      pending = '';
    }
  }
  const stages: Instruction[][] = [];
  for (const text of logical) {
    const m = /^([A-Za-z]+)\s+(.*)$/.exec(text);
    if (!m?.[1] || m[2] === undefined) throw new Error(`not a Dockerfile instruction: ${text}`);
    const ins = { keyword: m[1].toUpperCase(), args: m[2].trim() };
    if (ins.keyword === 'FROM') stages.push([]);
    const stage = stages.at(-1);
    if (!stage) throw new Error(`instruction before FROM: ${text}`);
    stage.push(ins);
  }
  return stages;
}

/** The JSON array of an exec-form instruction (ENTRYPOINT, CMD, VOLUME); throws on the shell form. */
export function execForm(args: string): string[] {
  if (!args.startsWith('[')) throw new Error(`shell form, not exec form: ${args}`);
  const parsed: unknown = JSON.parse(args);
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string'))
    throw new Error(`not a JSON array of strings: ${args}`);
  return parsed;
}

/** A systemd unit: section → key → values (a key may repeat). */
export function parseUnit(source: string): Record<string, Record<string, string[]>> {
  const out: Record<string, Record<string, string[]>> = {};
  let section: Record<string, string[]> | undefined;
  for (const raw of source.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const head = /^\[(.+)\]$/.exec(line);
    if (head?.[1]) {
      section = out[head[1]] ?? {};
      out[head[1]] = section;
      continue;
    }
    const eq = line.indexOf('=');
    if (!section || eq < 1) throw new Error(`not a unit line: ${line}`);
    const key = line.slice(0, eq).trim();
    const values = section[key] ?? [];
    values.push(line.slice(eq + 1).trim());
    section[key] = values;
  }
  return out;
}

/** "40s", "1m30s", "45" (seconds) → seconds. */
export function durationSecs(text: string): number {
  if (/^\d+$/.test(text)) return Number(text);
  const m = /^(?:(\d+)m)?(?:(\d+)s)?$/.exec(text);
  if (!m || (!m[1] && !m[2])) throw new Error(`not a duration: ${text}`);
  return Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0);
}
