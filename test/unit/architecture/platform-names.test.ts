// Platform knowledge lives in channels/ (issue 23): in src/, the platform names appear as code only in the config
// schema and the platform tables. Comments may mention platforms.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT, sourceFiles } from '../../helpers/source-files.ts';

const ALLOWED = [/^src\/config\//, /^src\/roles\/platforms\.ts$/, /^src\/roles\/channel-adapters\.ts$/];
/** A quoted platform name: 'telegram', "discord.x", `slack…`. */
const QUOTED = /['"`](telegram|discord|slack)\b/;

/** The text without comments, lines kept (a `//` after `:` is a URL, not a comment). */
const code = (text: string) =>
  text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, '')).replace(/(^|[^:])\/\/.*$/gm, '$1');

/** `file:line: text` for each line of code that names a platform. */
function offenders(file: string, text: string): string[] {
  return code(text)
    .split('\n')
    .flatMap((line, i) => (QUOTED.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

describe('platform names in src/', () => {
  it('appear only in src/config and the adapter/dialect tables', () => {
    const files = sourceFiles('src').filter((f) => !ALLOWED.some((re) => re.test(f)));
    const found = files.flatMap((f) => offenders(f, readFileSync(join(PROJECT_ROOT, f), 'utf8')));
    expect(found).toEqual([]);
  });

  it('the check sees a quoted name and skips comments', () => {
    const text =
      "// 'telegram' in a comment\n/* 'slack' */\nconst url = 'https://x'; // 'discord'\nif (k === 'discord') {}";
    expect(offenders('f.ts', text)).toEqual(["f.ts:4: if (k === 'discord') {}"]);
  });
});
