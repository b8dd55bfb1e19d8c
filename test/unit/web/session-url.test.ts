// Dashboard addresses and query values: any agent or session key round-trips, bad page values fall back.
import { describe, expect, it } from 'vitest';
import { pageParam, splitConversation, transcriptUrl } from '../../../src/web/sessions/session-url.ts';

describe('session urls', () => {
  it('encodes agent and session key as two path segments', () => {
    expect(transcriptUrl('main', 'slack.ops:C1/x:17.2')).toBe('/ui/sessions/main/slack.ops%3AC1%2Fx%3A17.2');
  });

  it('splits a conversation id into channel and a readable chat', () => {
    expect(splitConversation('telegram.bot:123:')).toEqual({ channel: 'telegram.bot', chat: '123' });
    expect(splitConversation('slack.ops:C1:17.2')).toEqual({ channel: 'slack.ops', chat: 'C1 · 17.2' });
    expect(splitConversation('cli-session')).toEqual({ channel: '', chat: 'cli-session' });
  });

  it('reads page values as small non-negative integers only', () => {
    expect(pageParam('50')).toBe(50);
    for (const bad of [undefined, '', '-1', '1e3', '0x10', '9999999999', ['1']])
      expect(pageParam(bad)).toBeUndefined();
  });
});
