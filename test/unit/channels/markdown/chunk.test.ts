import { describe, expect, it } from 'vitest';
import { chunkText } from '../../../../src/channel-host/chunking.ts';
import { chunkMarkdown, openFence } from '../../../../src/channel-host/markdown/chunk.ts';

const len = (s: string) => [...s].length;

describe('chunkMarkdown', () => {
  it('is chunkText when there is no fence', () => {
    const text = Array.from({ length: 200 }, (_, i) => `word${i} and some more text.`).join(i18n());
    expect(chunkMarkdown(text, 300)).toEqual(chunkText(text, 300));
  });

  it('closes a fence cut between chunks and reopens it with its language', () => {
    const code = Array.from({ length: 120 }, (_, i) => `  line ${i} = ${i * 2};`).join('\n');
    const text = `Intro **bold**.\n\n\`\`\`ts\n${code}\n\`\`\`\n\nAfter the block.`;
    const chunks = chunkMarkdown(text, 500);
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) {
      expect(len(c)).toBeLessThanOrEqual(500);
      expect(openFence(c), c).toBeNull();
    }
    for (const c of chunks.slice(1, -1)) expect(c.startsWith('```ts\n')).toBe(true);
    // Reassembled without the added fences, the code is all there, indentation kept.
    const body = chunks
      .join('\n')
      .split('\n')
      .filter((l) => !l.startsWith('```'))
      .join('\n');
    for (let i = 0; i < 120; i++) expect(body).toContain(`  line ${i} = ${i * 2};`);
    expect(chunks.at(-1)).toContain('After the block.');
  });

  it('handles tilde and long fences, and fences nested in longer ones', () => {
    const inner = Array.from({ length: 60 }, (_, i) => (i % 10 === 0 ? '```' : `x${i} `.repeat(5))).join(
      '\n',
    );
    const text = `~~~~\n${inner}\n~~~~`;
    const chunks = chunkMarkdown(text, 200);
    for (const c of chunks) {
      expect(len(c)).toBeLessThanOrEqual(200);
      expect(c.startsWith('~~~~')).toBe(true);
      expect(c.endsWith('~~~~')).toBe(true);
    }
  });

  it('stays within the limit on long lines without breaks, inside and outside fences', () => {
    for (const text of ['y'.repeat(10_000), `\`\`\`\n${'z'.repeat(10_000)}\n\`\`\``, '```\n'.repeat(3000)]) {
      const chunks = chunkMarkdown(text, 2000);
      for (const c of chunks) expect(len(c)).toBeLessThanOrEqual(2000);
      expect(chunks.join('').replaceAll(/[`\n]/g, '').length).toBeGreaterThanOrEqual(
        text.replaceAll(/[`\n]/g, '').length,
      );
    }
  });

  it('never splits a surrogate pair and is deterministic', () => {
    const text = `\`\`\`\n${'😀 '.repeat(3000)}\n\`\`\``;
    const a = chunkMarkdown(text, 4096);
    expect(a).toEqual(chunkMarkdown(text, 4096));
    for (const c of a) expect(c).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it('falls back to plain chunking below the fence-aware minimum', () => {
    expect(chunkMarkdown('```\nabcdefghij\n```', 10)).toEqual(chunkText('```\nabcdefghij\n```', 10));
  });
});

describe('openFence', () => {
  it('tracks fences like the parser', () => {
    expect(openFence('```py\nx')).toEqual({ marker: '```', reopen: '```py' });
    expect(openFence('```\nx\n```')).toBeNull();
    expect(openFence('````\n```\n')).toEqual({ marker: '````', reopen: '````' });
    expect(openFence('```inline``` code')).toBeNull();
  });
});

function i18n(): string {
  return ' ';
}
