// Folder layers of src/ (README "Architecture"): every import, type-only ones included, points down the order.
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT as ROOT, sourceFiles } from '../../helpers/source-files.ts';

/** Bottom → top; a folder imports only from folders in earlier layers (or its own). */
const LAYERS: readonly (readonly string[])[] = [
  ['core'],
  ['config', 'i18n', 'media'],
  ['providers', 'security', 'channel-host'],
  ['approval'],
  ['fleet', 'delegation', 'session', 'cron'],
  ['run-contract'],
  ['cost', 'live'],
  ['agent'],
  ['tools'],
  ['queue'],
  ['ops-api', 'chat-actions'],
  ['web'],
  ['roles'],
  ['cli'],
];

// Statements start a line; the clause before `from` holds only names, braces, commas, `*` and whitespace,
// so a `from '…'` inside a string or a function body is never taken for an import.
const STATIC = /^[ \t]*(?:import|export)\s+[\w\s{},*$]*?\bfrom\s*['"]([^'"]+)['"]/gm;
const BARE = /^[ \t]*import\s*['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every module specifier a source text imports or re-exports. */
function importSpecifiers(text: string): string[] {
  return [STATIC, BARE, DYNAMIC].flatMap((re) => [...text.matchAll(re)].map((m) => m[1]!));
}

/** `src/<folder>/…` → folder; `src/cli.ts` belongs to `cli`; anything outside src → undefined. */
function srcFolder(path: string): string | undefined {
  const parts = path.split('/');
  if (parts[0] !== 'src' || parts.length < 2) return undefined;
  return parts.length === 2 ? parts[1]!.replace(/\.ts$/, '') : parts[1];
}

interface Edge {
  file: string;
  /** A package name, or the repository path a relative specifier resolves to. */
  spec: string;
  relative: boolean;
  /** The src folder imported, or undefined for a package or a file outside src. */
  target: string | undefined;
}

function importsOf(file: string): Edge[] {
  return importSpecifiers(readFileSync(join(ROOT, file), 'utf8')).map((spec) => {
    if (!spec.startsWith('.')) return { file, spec, relative: false, target: undefined };
    const resolved = normalize(join(dirname(file), spec))
      .split('\\')
      .join('/');
    return { file, spec: resolved, relative: true, target: srcFolder(resolved) };
  });
}

/** A cycle in the folder graph, as `a → b → … → a`, or null. */
function findCycle(graph: ReadonlyMap<string, ReadonlySet<string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] | null => {
    state.set(node, 'open');
    path.push(node);
    for (const next of [...(graph.get(node) ?? [])].sort()) {
      if (state.get(next) === 'open') return [...path.slice(path.indexOf(next)), next];
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    path.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of [...graph.keys()].sort()) {
    if (state.has(node)) continue;
    const found = visit(node);
    if (found) return found;
  }
  return null;
}

/** A platform's dialect module: `channels/<kind>/dialect.ts`. */
const DIALECT = /^channels\/[^/]+\/dialect\.ts$/;

/** Imports that load at run time (`import type` is erased), followed through the project's own files. */
function runtimeClosure(roots: string[]): Edge[] {
  const seen = new Set<string>();
  const edges: Edge[] = [];
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(join(ROOT, file), 'utf8').replace(
      /^[ \t]*(?:import|export)\s+type\s[^;]*;/gm,
      '',
    );
    for (const spec of importSpecifiers(text)) {
      if (!spec.startsWith('.')) {
        edges.push({ file, spec, relative: false, target: undefined });
        continue;
      }
      visit(
        normalize(join(dirname(file), spec))
          .split('\\')
          .join('/'),
      );
    }
  };
  for (const r of roots) visit(r);
  return edges;
}

const srcEdges = sourceFiles('src').flatMap(importsOf);
const channelEdges = sourceFiles('channels').flatMap(importsOf);
const crossFolder = srcEdges.filter((e) => e.target !== undefined && e.target !== srcFolder(e.file));
const show = (edges: Edge[]) => edges.map((e) => `${relative('.', e.file)} → ${e.spec}`);

describe('folder layers of src/', () => {
  it('the src folders import each other without a cycle', () => {
    const graph = new Map<string, Set<string>>();
    for (const e of crossFolder) {
      const from = srcFolder(e.file)!;
      graph.set(from, (graph.get(from) ?? new Set()).add(e.target!));
    }
    const cycle = findCycle(graph);
    expect(cycle?.join(' → ') ?? null).toBeNull();
  });

  it('every src folder is placed in the layer order', () => {
    const placed = new Set(LAYERS.flat());
    const folders = new Set(sourceFiles('src').map((f) => srcFolder(f)!));
    expect([...folders].filter((f) => !placed.has(f)).sort()).toEqual([]);
  });

  it('each folder imports only from the layers below it', () => {
    const layerOf = new Map(LAYERS.flatMap((names, i) => names.map((n) => [n, i] as const)));
    const upward = crossFolder.filter((e) => {
      const from = layerOf.get(srcFolder(e.file)!) ?? -1;
      const to = layerOf.get(e.target!) ?? Number.POSITIVE_INFINITY;
      return to >= from;
    });
    expect(show(upward)).toEqual([]);
  });

  const forbidden: [from: string, to: string][] = [
    ['agent', 'tools'],
    ['cost', 'tools'],
    ['fleet', 'tools'],
    ['delegation', 'tools'],
  ];
  for (const [from, to] of forbidden) {
    it(`${from}/ imports nothing from ${to}/`, () => {
      expect(show(crossFolder.filter((e) => srcFolder(e.file) === from && e.target === to))).toEqual([]);
    });
  }

  it('bullmq is imported only under src/queue', () => {
    const hits = srcEdges.filter((e) => /^bullmq(\/|$)/.test(e.spec) && srcFolder(e.file) !== 'queue');
    expect(show([...hits, ...channelEdges.filter((e) => /^bullmq(\/|$)/.test(e.spec))])).toEqual([]);
  });

  it('the AI SDK (ai, @ai-sdk/*) is imported only under src/providers', () => {
    const sdk = (e: Edge) => /^(ai|@ai-sdk\/.+)$/.test(e.spec) || e.spec.startsWith('ai/');
    const hits = srcEdges.filter((e) => sdk(e) && srcFolder(e.file) !== 'providers');
    expect(show([...hits, ...channelEdges.filter(sdk)])).toEqual([]);
  });

  it('the channel libraries (grammy, discord.js, @slack/bolt) are imported only under channels/', () => {
    const lib = (e: Edge) => /^(grammy|discord\.js|@slack\/bolt)(\/|$)/.test(e.spec);
    expect(show(srcEdges.filter(lib))).toEqual([]);
  });

  it('src has no console calls (pino only; the CLI entry prints)', () => {
    const offenders = sourceFiles('src').filter(
      (f) =>
        f !== 'src/cli.ts' && /\bconsole\.(log|error|warn|info)\(/.test(readFileSync(join(ROOT, f), 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  it('channel adapters import only src/channel-host, src/media, src/core, their own files and libraries', () => {
    const stray = channelEdges.filter((e) => {
      if (!e.relative) return false; // a library (bullmq and the AI SDK are checked above)
      if (e.target !== undefined)
        return e.target !== 'channel-host' && e.target !== 'core' && e.target !== 'media';
      // A platform with no cards of its own (local, web) borrows another platform's dialect.
      if (DIALECT.test(e.file) && DIALECT.test(e.spec)) return false;
      const own = e.file.split('/').slice(0, 2).join('/');
      return !e.spec.startsWith(`${own}/`);
    });
    expect(show(stray)).toEqual([]);
  });

  it('dialects and the platform table load no library at all (workers load them without grammy & co)', () => {
    const roots = [...sourceFiles('channels').filter((f) => DIALECT.test(f)), 'src/roles/platforms.ts'];
    expect(roots.length).toBeGreaterThan(1);
    expect(show(runtimeClosure(roots).filter((e) => !e.relative))).toEqual([]);
  });

  it('the platform table imports only dialects and src/channel-host', () => {
    const stray = importsOf('src/roles/platforms.ts').filter(
      (e) => !DIALECT.test(e.spec) && e.target !== 'channel-host',
    );
    expect(show(stray)).toEqual([]);
  });
});

describe('the import scanner (a layer test that cannot see an import is no test)', () => {
  it('finds static, type-only, multi-line, re-exported, bare and dynamic imports', () => {
    const text = [
      "import { a } from '../x/a.ts';",
      "import type { B } from '../y/b.ts';",
      'import {',
      '  type C,',
      '  d,',
      "} from '../z/c.ts';",
      "export { e } from '../w/e.ts';",
      "export type * from '../v/f.ts';",
      "import '../u/side.ts';",
      "const g = await import('../t/g.ts');",
      "const s = 'not an import from \\'../no.ts\\'';",
    ].join('\n');
    expect(importSpecifiers(text)).toEqual([
      '../x/a.ts',
      '../y/b.ts',
      '../z/c.ts',
      '../w/e.ts',
      '../v/f.ts',
      '../u/side.ts',
      '../t/g.ts',
    ]);
  });

  it('reports a cycle with its path', () => {
    const graph = new Map([
      ['agent', new Set(['cost'])],
      ['cost', new Set(['tools'])],
      ['tools', new Set(['agent'])],
    ]);
    expect(findCycle(graph)).toEqual(['agent', 'cost', 'tools', 'agent']);
    expect(findCycle(new Map([['agent', new Set(['core'])]]))).toBeNull();
  });
});
