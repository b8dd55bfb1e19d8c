// Approval prompts per platform (approvals.md §12.2–§12.5) and the prompt once decided (§10.8).
import { describe, expect, it } from 'vitest';
import { type ApprovalCard, renderApprovalCard, renderDecidedCard } from '../../../src/approval/card.ts';
import { BUTTON_ID_MAX_BYTES, outboundMessageSchema } from '../../../src/channel-host/types.ts';
import { dialectOf } from '../../../src/roles/platforms.ts';

const ID = '3f0c9a52-8d1e-4b6a-9c2f-0123456789ab';
const base: ApprovalCard = {
  approvalId: ID,
  replyToken: 'k3x9q2',
  tool: 'shell',
  argsSummary: 'command: ls -la, cwd: /tmp',
  group: false,
};
const routed: ApprovalCard = { ...base, agent: { name: 'coder' } };
const delegated: ApprovalCard = { ...base, agent: { name: 'coder', caller: 'main' } };

describe('Telegram (§12.2)', () => {
  it('HTML message, plain fallback, one row of three buttons', () => {
    const msg = renderApprovalCard(dialectOf('telegram'), base);
    expect(msg.markup).toBe(
      '🔧 <b>Tool approval required</b>\n\nTool: <code>shell</code>\nArgs: <code>command: ls -la, cwd: /tmp</code>\n\nTap a button below:',
    );
    expect(msg.text).toBe(
      '🔧 Tool approval required\n\nTool: shell\nArgs: command: ls -la, cwd: /tmp\n\nTap a button below:',
    );
    expect(msg.buttons).toEqual([
      [
        { id: `approval:${ID}:approve`, label: '✅ Approve' },
        { id: `approval:${ID}:deny`, label: '❌ Deny' },
        { id: `approval:${ID}:always`, label: '✅✅ Always' },
      ],
    ]);
  });

  it('the Agent line of a route prompt, with the caller of a delegated child', () => {
    expect(renderApprovalCard(dialectOf('telegram'), routed).markup).toContain(
      'Tool: <code>shell</code>\nAgent: <code>coder</code>\nArgs:',
    );
    const msg = renderApprovalCard(dialectOf('telegram'), delegated);
    expect(msg.markup).toContain(
      'Tool: <code>shell</code>\nAgent: <code>coder</code> (delegated by <code>main</code>)\nArgs:',
    );
    expect(msg.text).toBe(
      '🔧 Tool approval required\n\nTool: shell\nAgent: coder (delegated by main)\nArgs: command: ls -la, cwd: /tmp\n\nTap a button below:',
    );
  });

  it('escapes tool, agent and args in the HTML only', () => {
    const msg = renderApprovalCard(dialectOf('telegram'), {
      ...base,
      tool: 'a<b>',
      argsSummary: 'x: <i>&</i>',
      agent: { name: 'c&d', caller: '<e>' },
    });
    expect(msg.markup).toContain('Tool: <code>a&lt;b&gt;</code>');
    expect(msg.markup).toContain('Agent: <code>c&amp;d</code> (delegated by <code>&lt;e&gt;</code>)');
    expect(msg.markup).toContain('Args: <code>x: &lt;i&gt;&amp;&lt;/i&gt;</code>');
    expect(msg.text).toContain('Args: x: <i>&</i>');
  });

  it('an empty summary shows as (none)', () => {
    expect(renderApprovalCard(dialectOf('telegram'), { ...base, argsSummary: '' }).markup).toContain(
      'Args: <code>(none)</code>',
    );
  });
});

describe('Discord (§12.3)', () => {
  it('plain content and four buttons with styles and apv ids', () => {
    const msg = renderApprovalCard(dialectOf('discord'), delegated);
    expect(msg.text).toBe(
      'APPROVAL REQUIRED\nTool: shell\nAgent: coder (delegated by main)\nArgs: command: ls -la, cwd: /tmp',
    );
    expect(msg.markup).toBeUndefined();
    expect(msg.buttons).toEqual([
      [
        { id: `apv:${ID}:1`, label: 'Allow once', style: 'success' },
        { id: `apv:${ID}:2`, label: 'Allow this session', style: 'primary' },
        { id: `apv:${ID}:3`, label: 'Always allow' },
        { id: `apv:${ID}:0`, label: 'Deny', style: 'danger' },
      ],
    ]);
    expect(renderApprovalCard(dialectOf('discord'), base).text).toBe(
      'APPROVAL REQUIRED\nTool: shell\nArgs: command: ls -la, cwd: /tmp',
    );
  });

  it('both "Allow this session" and "Always allow" mean Always (§3)', () => {
    const actions = renderApprovalCard(dialectOf('discord'), base).buttons![0]!.map(
      (b) => dialectOf('discord').parseApprovalPress(b.id)?.action,
    );
    expect(actions).toEqual(['approve', 'always', 'always', 'deny']);
  });
});

describe('Slack (§12.4)', () => {
  it('plain text, mrkdwn section, three buttons: action_id carries the token, value the approval id', () => {
    const msg = renderApprovalCard(dialectOf('slack'), delegated);
    expect(msg.text).toBe(
      'APPROVAL REQUIRED [k3x9q2]\nTool: shell\nAgent: coder (delegated by main)\nArgs: command: ls -la, cwd: /tmp',
    );
    expect(msg.markup).toBe(
      '*APPROVAL REQUIRED* [`k3x9q2`]\n*Tool:* `shell`\n*Agent:* coder (delegated by main)\n*Args:* command: ls -la, cwd: /tmp',
    );
    expect(msg.buttons).toEqual([
      [
        { id: 'approval_k3x9q2_approve', label: 'Approve', value: ID, style: 'primary' },
        { id: 'approval_k3x9q2_deny', label: 'Deny', value: ID, style: 'danger' },
        { id: 'approval_k3x9q2_always', label: 'Always', value: ID },
      ],
    ]);
    expect(renderApprovalCard(dialectOf('slack'), base).text).toBe(
      'APPROVAL REQUIRED [k3x9q2]\nTool: shell\nArgs: command: ls -la, cwd: /tmp',
    );
  });

  it('escapes &, < and > in the mrkdwn (no mention can be smuggled in through the arguments)', () => {
    const msg = renderApprovalCard(dialectOf('slack'), { ...base, argsSummary: 'text: <!channel> & co' });
    expect(msg.markup).toContain('*Args:* text: &lt;!channel&gt; &amp; co');
  });
});

describe('text mode (§12.5)', () => {
  it('the reply line, and the group warning after a blank line in a group', () => {
    const msg = renderApprovalCard('text', delegated);
    expect(msg.text).toBe(
      'APPROVAL REQUIRED [k3x9q2]\nTool: shell\nAgent: coder (delegated by main)\nArgs: command: ls -la, cwd: /tmp\n\nReply: "k3x9q2 yes", "k3x9q2 no", or "k3x9q2 always"',
    );
    expect(msg.buttons).toBeUndefined();
    // The same text, escaped for the adapters that take markup, so nothing in it is read as formatting.
    expect(msg.markup).toBe(msg.text);
    expect(renderApprovalCard('text', { ...base, argsSummary: 'x: <b>&' }).markup).toContain(
      'Args: x: &lt;b&gt;&amp;\n',
    );
    expect(renderApprovalCard('text', { ...base, group: true }).text).toBe(
      'APPROVAL REQUIRED [k3x9q2]\nTool: shell\nArgs: command: ls -la, cwd: /tmp\n\nReply: "k3x9q2 yes", "k3x9q2 no", or "k3x9q2 always"\n\nThis is a group chat, so everyone here can see this code and the tool arguments shown above. Only an authorized peer for this channel can answer.',
    );
  });
});

describe('every card fits the channel contract', () => {
  it.each(['telegram', 'discord', 'slack', 'text'] as const)('%s', (platform) => {
    const msg = renderApprovalCard(platform === 'text' ? platform : dialectOf(platform), delegated);
    expect(outboundMessageSchema.parse(msg)).toEqual(msg);
    for (const b of msg.buttons?.flat() ?? []) {
      expect(Buffer.byteLength(b.id)).toBeLessThanOrEqual(BUTTON_ID_MAX_BYTES);
      expect(b.id).toMatch(/^[\x21-\x7e]+$/);
    }
  });
});

describe('the prompt once decided (§10.8)', () => {
  it.each([
    [{ kind: 'approved', by: 'alice' }, '✅ Approved by alice'],
    [{ kind: 'always', by: 'alice' }, '✅✅ Always approved by alice'],
    [{ kind: 'denied', by: 'bob' }, '❌ Denied by bob'],
    [{ kind: 'expired' }, '⌛ Expired: no decision was made in time'],
    [{ kind: 'cancelled' }, '🚫 Cancelled: the run that asked has ended'],
  ] as const)('%o: the outcome replaces the instructions; the buttons go', (outcome, line) => {
    const tg = renderDecidedCard(dialectOf('telegram'), delegated, outcome);
    expect(tg.buttons).toEqual([]);
    expect(tg.text).toBe(
      `🔧 Tool approval required\n\nTool: shell\nAgent: coder (delegated by main)\nArgs: command: ls -la, cwd: /tmp\n\n${line}`,
    );
    expect(tg.markup).toMatch(new RegExp(`</code>\\n\\n${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    const dc = renderDecidedCard(dialectOf('discord'), base, outcome);
    expect(dc).toEqual({
      text: `APPROVAL REQUIRED\nTool: shell\nArgs: command: ls -la, cwd: /tmp\n\n${line}`,
      buttons: [],
    });
    const sl = renderDecidedCard(dialectOf('slack'), base, outcome);
    expect(sl.text).toBe(
      `APPROVAL REQUIRED [k3x9q2]\nTool: shell\nArgs: command: ls -la, cwd: /tmp\n\n${line}`,
    );
    expect(sl.markup?.endsWith(`\n\n${line}`)).toBe(true);
    expect(sl.buttons).toEqual([]);
    const tx = renderDecidedCard('text', { ...base, group: true }, outcome);
    expect(tx.text).toBe(
      `APPROVAL REQUIRED [k3x9q2]\nTool: shell\nArgs: command: ls -la, cwd: /tmp\n\n${line}`,
    );
  });

  it("escapes the decider's name in the markup", () => {
    const msg = renderDecidedCard(dialectOf('telegram'), base, { kind: 'approved', by: '<b>x</b>' });
    expect(msg.markup?.endsWith('✅ Approved by &lt;b&gt;x&lt;/b&gt;')).toBe(true);
  });
});

describe('the Reason line (one prompt for every reason a call is asked)', () => {
  const both: ApprovalCard = {
    ...base,
    argsSummary: 'command: touch x',
    reasons: ['always_ask', 'command_writes'],
  };
  const REASON = 'Reason: always_ask lists shell; the command may write';

  it('follows Args on every layout', () => {
    expect(renderApprovalCard(dialectOf('telegram'), both).markup).toBe(
      `🔧 <b>Tool approval required</b>\n\nTool: <code>shell</code>\nArgs: <code>command: touch x</code>\n${REASON}\n\nTap a button below:`,
    );
    expect(renderApprovalCard(dialectOf('telegram'), both).text).toBe(
      `🔧 Tool approval required\n\nTool: shell\nArgs: command: touch x\n${REASON}\n\nTap a button below:`,
    );
    expect(renderApprovalCard(dialectOf('discord'), both).text).toBe(
      `APPROVAL REQUIRED\nTool: shell\nArgs: command: touch x\n${REASON}`,
    );
    const slack = renderApprovalCard(dialectOf('slack'), both);
    expect(slack.text).toBe(`APPROVAL REQUIRED [k3x9q2]\nTool: shell\nArgs: command: touch x\n${REASON}`);
    expect(slack.markup).toContain(
      '*Args:* command: touch x\n*Reason:* always_ask lists shell; the command may write',
    );
    expect(renderApprovalCard('text', both).text).toBe(
      `APPROVAL REQUIRED [k3x9q2]\nTool: shell\nArgs: command: touch x\n${REASON}\n\nReply: "k3x9q2 yes", "k3x9q2 no", or "k3x9q2 always"`,
    );
  });

  it('is absent for the plain supervised prompt (not auto-approved and nothing else)', () => {
    const plain = { ...base, reasons: ['not_auto_approved' as const] };
    expect(renderApprovalCard(dialectOf('discord'), plain).text).toBe(
      'APPROVAL REQUIRED\nTool: shell\nArgs: command: ls -la, cwd: /tmp',
    );
    expect(
      renderApprovalCard(dialectOf('discord'), {
        ...plain,
        reasons: ['not_auto_approved', 'medium_risk_command'],
      }).text,
    ).toContain('Reason: shell is not auto-approved; medium-risk command');
  });
});
