// GET /assets/<file>: the stylesheet and page scripts, from a fixed list (no path from the URL reaches the disk).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
};

const DIR = join(import.meta.dirname, 'assets');

/** Files served, by name; a feature that adds a script adds its name here. */
export const ASSET_FILES: readonly string[] = [
  'baton.css',
  'chat.js',
  'header.js',
  'live.js',
  'ops.js',
  'sessions.js',
];

export function registerAssets(app: FastifyInstance): void {
  for (const name of ASSET_FILES) {
    const type = TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream';
    app.get(`/assets/${name}`, async (_req, reply) =>
      reply
        .type(type)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-cache')
        .send(readFileSync(join(DIR, name))),
    );
  }
}
