// Import boundaries of ARCHITECTURE.md: each outside library is imported only where it belongs.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT as ROOT, sourceFiles } from '../helpers/source-files.ts';

const RULES: { pattern: RegExp; allowedUnder: string[]; what: string }[] = [
  {
    pattern: /from ['"](grammy|discord\.js|@slack\/bolt)['"/]/,
    allowedUnder: ['channels/'],
    what: 'channel libraries',
  },
  { pattern: /from ['"]bullmq['"/]/, allowedUnder: ['src/queue/'], what: 'bullmq' },
  { pattern: /from ['"](ai|@ai-sdk\/[^'"]+)['"]/, allowedUnder: ['src/providers/'], what: 'the AI SDK' },
];

describe('import boundaries', () => {
  const files = ['src', 'channels'].flatMap((d) => sourceFiles(d));
  for (const rule of RULES) {
    it(`${rule.what} are imported only under ${rule.allowedUnder.join(', ')}`, () => {
      const offenders = files.filter(
        (f) =>
          rule.pattern.test(readFileSync(join(ROOT, f), 'utf8')) &&
          !rule.allowedUnder.some((a) => f.startsWith(a)),
      );
      expect(offenders.map((f) => relative('.', f))).toEqual([]);
    });
  }

  it('the rule patterns do match real imports (a boundary test that cannot fail is no test)', () => {
    expect(RULES[1]!.pattern.test("import { Queue } from 'bullmq';")).toBe(true);
    expect(RULES[2]!.pattern.test("import { generateText } from 'ai';")).toBe(true);
    expect(RULES[2]!.pattern.test("import { createOpenAI } from '@ai-sdk/openai';")).toBe(true);
    expect(RULES[0]!.pattern.test("import { Bot } from 'grammy';")).toBe(true);
  });

  it('src has no console calls (pino only)', () => {
    const offenders = sourceFiles('src').filter(
      (f) =>
        f !== 'src/cli.ts' && /\bconsole\.(log|error|warn|info)\(/.test(readFileSync(join(ROOT, f), 'utf8')),
    );
    expect(offenders).toEqual([]);
  });
});
