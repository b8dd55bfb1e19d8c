// Writing an attachment into <workspace>/inbox (media/inbox-files.ts): atomic, once per rerun, and never through
// a link out of the inbox.
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InboxPathError, writeInboxFile } from '../../../src/media/inbox-files.ts';

let root: string;
let ws: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'baton-inbox-'));
  ws = join(root, 'ws');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const bytes = Buffer.from('hello');
const loads = () => {
  const calls: number[] = [];
  return {
    calls,
    load: async () => {
      calls.push(1);
      return bytes;
    },
  };
};

describe('writeInboxFile', () => {
  it('creates the workspace and folders, writes the bytes, leaves no temporary file', async () => {
    const l = loads();
    const out = await writeInboxFile(ws, 'inbox/c/e-a.txt', 5, l.load, true);
    expect(out).toEqual({ size: 5, bytes });
    expect(readFileSync(join(ws, 'inbox/c/e-a.txt'), 'utf8')).toBe('hello');
    expect(readdirSync(join(ws, 'inbox/c'))).toEqual(['e-a.txt']);
  });

  it('a rerun finds the file of the same size: nothing loaded, the bytes read back when wanted', async () => {
    await writeInboxFile(ws, 'inbox/c/e-a.txt', 5, loads().load, false);
    const l = loads();
    expect(await writeInboxFile(ws, 'inbox/c/e-a.txt', 5, l.load, false)).toEqual({ size: 5, bytes: null });
    expect(await writeInboxFile(ws, 'inbox/c/e-a.txt', 5, l.load, true)).toEqual({ size: 5, bytes });
    expect(l.calls).toHaveLength(0);
  });

  it('a file of another size is replaced', async () => {
    mkdirSync(join(ws, 'inbox/c'), { recursive: true });
    writeFileSync(join(ws, 'inbox/c/e-a.txt'), 'partial');
    await writeInboxFile(ws, 'inbox/c/e-a.txt', 5, loads().load, false);
    expect(readFileSync(join(ws, 'inbox/c/e-a.txt'), 'utf8')).toBe('hello');
  });

  it('expired bytes and no earlier copy: null, nothing written', async () => {
    expect(await writeInboxFile(ws, 'inbox/c/e-a.txt', 5, async () => null, false)).toBeNull();
    expect(readdirSync(join(ws, 'inbox/c'))).toEqual([]);
  });

  it.each(['inbox/../outside.txt', '../x.txt', 'inbox', 'other/x.txt', '/etc/x.txt'])(
    'a path outside the inbox is refused: %s',
    async (rel) => {
      await expect(writeInboxFile(ws, rel, 5, loads().load, false)).rejects.toBeInstanceOf(InboxPathError);
    },
  );

  it('an inbox or conversation folder that links elsewhere is refused, nothing written there', async () => {
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(elsewhere);
    mkdirSync(ws);
    symlinkSync(elsewhere, join(ws, 'inbox'));
    await expect(writeInboxFile(ws, 'inbox/c/e-a.txt', 5, loads().load, false)).rejects.toBeInstanceOf(
      InboxPathError,
    );
    rmSync(join(ws, 'inbox'));
    mkdirSync(join(ws, 'inbox'));
    rmSync(join(elsewhere), { recursive: true });
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(ws, 'inbox', 'c'));
    await expect(writeInboxFile(ws, 'inbox/c/e-a.txt', 5, loads().load, false)).rejects.toBeInstanceOf(
      InboxPathError,
    );
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('a link planted at the file name is replaced by the file, its target untouched', async () => {
    const target = join(root, 'secret.txt');
    writeFileSync(target, 'secret');
    mkdirSync(join(ws, 'inbox/c'), { recursive: true });
    symlinkSync(target, join(ws, 'inbox/c/e-a.txt'));
    await writeInboxFile(ws, 'inbox/c/e-a.txt', 6, loads().load, false);
    expect(readFileSync(target, 'utf8')).toBe('secret');
    expect(readFileSync(join(ws, 'inbox/c/e-a.txt'), 'utf8')).toBe('hello');
  });
});
