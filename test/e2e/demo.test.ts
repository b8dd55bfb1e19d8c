// `npm run demo` keeps telling its story: the user's question, the card in #ops, the press, the answer.
import { describe, expect, it } from 'vitest';
import { startProcess } from '../helpers/baton-process.ts';

describe('npm run demo', () => {
  it('runs the approval story to the answer and exits 0', async () => {
    const demo = startProcess('npm', ['run', '--silent', 'demo'], { label: 'npm run demo' });
    const code = await demo.exited;
    const out = demo.output();
    expect(code, out).toBe(0);
    const lines = out.split('\n');
    const at = (pattern: RegExp) => lines.findIndex((l) => pattern.test(l));
    const asked = at(/^\[telegram home\] alice: Is the disk on the server filling up\?/);
    const card = at(/^\[slack #ops\] +baton: \*APPROVAL REQUIRED\*/);
    const pressed = at(/^\[slack #ops\] +ops-lead: presses \[Approve\]/);
    const answered = at(
      /^\[telegram home\] baton: I asked sysadmin, and the ops room approved the check: the disk is \d+% full/,
    );
    expect(
      [asked, card, pressed, answered].every((i) => i >= 0),
      out,
    ).toBe(true);
    expect(out).toContain('*Args:* command: df -h .');
    expect(out).toContain('✅ Approved by ops-lead');
    expect(asked < card && card < pressed && pressed < answered, out).toBe(true);
  }, 90_000);
});
