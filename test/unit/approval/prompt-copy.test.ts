// approvals.md §12.1 copy strings and §9 model texts, verbatim from the spec.
import { describe, expect, it } from 'vitest';
import {
  DENIED_BY_USER,
  type NotRunReason,
  notRunText,
  refusedStatusLine,
} from '../../../src/approval/approval-messages.ts';
import { approvalAck } from '../../../src/approval/copy.ts';
import { formatMarkup } from '../../../src/channel-host/approval-card.ts';
import { createCatalog, defaultCatalog } from '../../../src/i18n/catalog.ts';

const c = defaultCatalog();

describe('§12.1 catalog strings (English)', () => {
  it.each([
    ['approval-heading', 'Tool approval required'],
    ['approval-heading-shout', 'APPROVAL REQUIRED'],
    ['approval-tool-label', 'Tool'],
    ['approval-args-label', 'Args'],
    ['approval-button-approve', 'Approve'],
    ['approval-button-deny', 'Deny'],
    ['approval-button-always', 'Always'],
    ['approval-tap-instruction', 'Tap a button below:'],
    [
      'approval-group-warning',
      'This is a group chat, so everyone here can see this code and the tool arguments shown above. Only an authorized peer for this channel can answer.',
    ],
    ['approval-ack-approved', 'Approved'],
    ['approval-ack-always', 'Always approved'],
    ['approval-ack-denied', 'Denied'],
    ['approval-ack-unknown', 'Unknown action'],
    ['approval-discord-allow-once', 'Allow once'],
    ['approval-discord-allow-session', 'Allow this session'],
    ['approval-discord-always-allow', 'Always allow'],
    ['approval-other-allow-once', 'Allow once'],
    ['approval-other-always-allow', 'Always allow'],
    ['approval-other-reject', 'Reject'],
    ['approval-other-reject-with-edit', 'Reject with edit'],
    ['approval-args-none', '(none)'],
  ])('%s = %s', (key, value) => {
    expect(c.format(key)).toBe(value);
  });

  it('formats the texts with placeholders as the spec writes them', () => {
    expect(
      c.format('approval-reply-yes-no', {
        yes_command: '<yes_command>',
        no_command: '<no_command>',
        always_command: '<always_command>',
      }),
    ).toBe('Reply: "<yes_command>", "<no_command>", or "<always_command>"');
    expect(
      c.format('approval-reply-approve-deny', {
        approve_command: '<approve_command>',
        deny_command: '<deny_command>',
        always_command: '<always_command>',
      }),
    ).toBe('Reply `<approve_command>` / `<deny_command>` / `<always_command>`.');
    expect(c.format('approval-other-approve-tool', { tool: '<tool>' })).toBe('Approve <tool>?');
    const agentLine = `${c.format('approval-agent-label')}: ${c.format('approval-agent-delegated', {
      target: '<target>',
      caller: '<caller>',
    })}`;
    expect(agentLine).toBe('Agent: <target> (delegated by <caller>)');
    expect(`${c.format('approval-agent-label')}: <alias>`).toBe('Agent: <alias>');
  });

  it('acks carry their emoji prefixes', () => {
    expect(approvalAck('approve')).toBe('✅ Approved');
    expect(approvalAck('always')).toBe('✅✅ Always approved');
    expect(approvalAck('deny')).toBe('❌ Denied');
    expect(approvalAck('unknown')).toBe('⚠️ Unknown action');
  });

  it('an operator override changes the text, not the fixed prefix', () => {
    const de = createCatalog('en', 'approval-ack-denied = Abgelehnt\n');
    expect(approvalAck('deny', de)).toBe('❌ Abgelehnt');
  });

  it('formatMarkup escapes the catalog text and inserts markup arguments as given', () => {
    const cat = createCatalog('en', 'approval-agent-delegated = { $target } <von> { $caller } & co\n');
    const out = formatMarkup(
      cat,
      'approval-agent-delegated',
      { target: '<code>a</code>', caller: '<code>b</code>' },
      (s) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;'),
    );
    expect(out).toBe('<code>a</code> &lt;von&gt; <code>b</code> &amp; co');
  });
});

describe('§9 what the model is told', () => {
  const runtime =
    "Tool call not executed: 'file_write' requires approval and no operator decision was available, so the runtime denied it by policy. This was not a user's decision.";

  it("an operator's deny", () => {
    expect(DENIED_BY_USER).toBe('Denied by user.');
    expect(notRunText('operator_deny', 'file_write')).toBe('Denied by user.');
  });

  it.each<NotRunReason>(['timed_out', 'unreachable', 'unavailable', 'cancelled', 'no_approver'])(
    '%s is a runtime denial, never blamed on a user',
    (reason) => {
      expect(notRunText(reason, 'file_write')).toBe(runtime);
    },
  );

  it('the status line of a refused call', () => {
    expect(refusedStatusLine('shell', 'Denied by user.')).toBe('❌ shell: Denied by user.');
  });
});
