// Which message texts are chat commands.
import { describe, expect, it } from 'vitest';
import { parseChatCommand } from '../../../src/channel-host/commands.ts';

const parse = (text: string, addressedToBot = false) => parseChatCommand({ text, addressedToBot });

describe('parseChatCommand', () => {
  it('takes the whole text /new, /stop, /status (surrounding blanks allowed)', () => {
    expect(parse('/new')).toBe('new');
    expect(parse(' /stop\n')).toBe('stop');
    expect(parse('/status')).toBe('status');
  });
  it('takes Telegram /cmd@bot only when addressed to this bot', () => {
    expect(parse('/new@baton_bot', true)).toBe('new');
    expect(parse('/new@other_bot', false)).toBeNull();
  });
  it('leaves everything else to the agent', () => {
    for (const t of ['/new please', 'new', '!stop', '/STOP', '/help', 'please /stop', '/stopp']) {
      expect(parse(t)).toBeNull();
    }
  });
});
