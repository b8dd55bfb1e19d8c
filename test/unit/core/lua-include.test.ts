// Lua fragments: `--!include` inlines a file relative to the includer, once per script.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLuaSource } from '../../../src/core/redis-script.ts';

describe('readLuaSource', () => {
  it('inlines fragments relative to the including file, each once', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lua-include-'));
    mkdirSync(join(dir, 'a'));
    mkdirSync(join(dir, 'b'));
    writeFileSync(join(dir, 'b', 'common.fragment.lua'), 'local function common() return 1 end\n');
    writeFileSync(
      join(dir, 'a', 'x.fragment.lua'),
      '--!include ../b/common.fragment.lua\nlocal function x() return common() end\n',
    );
    writeFileSync(
      join(dir, 'a', 'run-1.lua'),
      '--!include x.fragment.lua\n--!include ../b/common.fragment.lua\nreturn x()\n',
    );
    expect(readLuaSource(join(dir, 'a', 'run-1.lua'))).toBe(
      'local function common() return 1 end\nlocal function x() return common() end\n\nreturn x()\n',
    );
  });

  it('every shipped script that includes a fragment has no include line left', () => {
    for (const script of [
      'src/queue/lua/settle-turn-11.lua',
      'src/queue/lua/begin-drain-3.lua',
      'src/queue/lua/enqueue-live-op-3.lua',
      'src/queue/lua/enqueue-reply-2.lua',
      'src/queue/lua/drop-unreadable-head-4.lua',
      'src/session/lua/append-history-3.lua',
    ]) {
      const src = readLuaSource(join(import.meta.dirname, '../../..', script));
      expect(src).not.toMatch(/--!include/);
      expect(src).toMatch(/local function (outbox_add|history_append|begin_turn)/);
    }
  });
});
