// Names from a platform as file names (media.md §1: [A-Za-z0-9._-], at most 100 characters) and sizes as lines show them.
import { describe, expect, it } from 'vitest';
import { formatLimit, formatSize } from '../../../src/media/media-messages.ts';
import { inboxRelativePath, SAFE_NAME_MAX, safeName } from '../../../src/media/safe-name.ts';

describe('safeName', () => {
  it.each([
    ['photo.png', 'photo.png'],
    ['Q3 report (final).pdf', 'Q3_report__final_.pdf'],
    ['../../etc/passwd', '_.._etc_passwd'],
    ['..', 'file'],
    ['.', 'file'],
    ['.bashrc', 'bashrc'],
    ['...hidden', 'hidden'],
    ['', 'file'],
    ['___', 'file'],
    ['a\u0000b\nc\rd\te', 'a_b_c_d_e'],
    ['résumé.pdf', 'r_sum_.pdf'],
    ['日本語.txt', '___.txt'],
    ['file\u202etxt.exe', 'file_txt.exe'],
    ['C:\\Windows\\system32', 'C__Windows_system32'],
    ['a/b\\c', 'a_b_c'],
  ])('%j → %j', (raw, safe) => {
    expect(safeName(raw)).toBe(safe);
  });

  it('keeps at most 100 characters, and a short extension', () => {
    expect(safeName('x'.repeat(10_000))).toBe('x'.repeat(SAFE_NAME_MAX));
    expect(safeName(`${'x'.repeat(9_996)}.pdf`)).toBe(`${'x'.repeat(96)}.pdf`);
    expect(safeName(`${'y'.repeat(200)}.verylongextension`)).toHaveLength(SAFE_NAME_MAX);
    expect(safeName(`${'/'.repeat(500)}a.txt`)).toHaveLength(SAFE_NAME_MAX);
  });

  it('every output is a plain file name', () => {
    const odd = [
      '..',
      '../',
      '/',
      '\\',
      '\u0000',
      ' ',
      '.',
      '-',
      '~',
      '%2e%2e%2f',
      '....//',
      'CON',
      'a'.repeat(300),
    ];
    for (const raw of odd) expect(safeName(raw)).toMatch(/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/);
  });
});

describe('inboxRelativePath', () => {
  it('is inbox/<conversation>/<event>-<name>, every part safe', () => {
    expect(inboxRelativePath('telegram.main:-100123:7', '42', 'photo.jpg')).toBe(
      'inbox/telegram.main_-100123_7/42-photo.jpg',
    );
    expect(inboxRelativePath('../..', '../x', '../../etc/passwd')).toBe(
      'inbox/conversation/_x-_.._etc_passwd',
    );
  });

  it('never leaves inbox/, whatever the parts', () => {
    for (const part of ['..', '../..', '/etc', 'a/../../b', '\u0000', 'x'.repeat(10_000)]) {
      const rel = inboxRelativePath(part, part, part);
      expect(rel.split('/')).toHaveLength(3);
      expect(rel.split('/').slice(1)).not.toContain('..');
      expect(rel.startsWith('inbox/')).toBe(true);
    }
  });
});

describe('formatSize', () => {
  it.each([
    [undefined, 'size unknown'],
    [0, '0 B'],
    [1, '1 B'],
    [1023, '1023 B'],
    [1024, '1.0 KB'],
    [1536, '1.5 KB'],
    [1024 * 1024, '1.0 MB'],
    [20 * 1024 * 1024, '20.0 MB'],
    [21 * 1024 * 1024, '21.0 MB'],
    [1024 ** 3, '1.0 GB'],
    [1024 * 1024 - 1, '1.0 MB'], // rounds up across the unit, never "1024.0 KB"
    [1024 * 1024 - 60, '1023.9 KB'],
  ])('%s → %s', (bytes, text) => {
    expect(formatSize(bytes)).toBe(text);
  });

  it('limits read as the config states them', () => {
    expect(formatLimit(20 * 1024 * 1024)).toBe('20 MB');
    expect(formatLimit(0.5 * 1024 * 1024)).toBe('0.5 MB');
  });
});
