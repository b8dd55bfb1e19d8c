// `npm run demo:media` keeps telling its story: a screenshot in, the model shown the image and its line, the
// answer, then the report as a document, from a `baton start` process on the fakes.
import { describe, expect, it } from 'vitest';
import { startProcess } from '../helpers/baton-process.ts';

describe('npm run demo:media', () => {
  it('sends the screenshot to a model with vision and the report back after the answer, and exits 0', async () => {
    const demo = startProcess('npm', ['run', '--silent', 'demo:media'], { label: 'npm run demo:media' });
    const code = await demo.exited;
    const out = demo.output();
    expect(code, out).toBe(0);
    const lines = out.split('\n');
    const at = (pattern: RegExp) => lines.findIndex((l) => pattern.test(l));
    const sent = at(
      /^\[telegram home\] alice: \[photo, \d+ bytes\] The checkout page shows this\. What is wrong\?$/,
    );
    const answer = at(/^\[telegram home\] baton: I looked at your screenshot: /);
    const report = at(
      /^\[telegram home\] baton: \[document checkout-error\.md, \d+ bytes\] Incident report$/,
    );
    expect(
      [sent, answer, report].every((i) => i >= 0),
      out,
    ).toBe(true);
    expect(sent < answer && answer < report, out).toBe(true);
    expect(out).toContain('- Screenshot: a 640×360 PNG ([attachment: image photo-');
    expect(out).toMatch(/saved as inbox\/telegram\.home_4242_\/4242_\d+-photo-\w+\.jpg\]/);
    expect(out).toContain('Telegram downloads of the screenshot: 1');
  }, 90_000);
});
