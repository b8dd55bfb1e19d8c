// Config → Risk profiles → ops → delegation_policy.mode in real Chromium, end to end: the next delegation is
// refused while the profile says "forbidden"; the dashboard saves "allow" (format-preserving edit, validation,
// deployment reload) and the next delegation runs; the TOML file keeps its comments.
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolResultsOf } from '../fakes/model-requests.ts';
import { hasChromium, launchBrowser, NO_CHROMIUM, screenshot } from '../helpers/browser.ts';
import { createRuntimeHarness, LOCAL_PEERS, type RuntimeHarness } from '../helpers/runtime-harness.ts';
import { replyIn } from '../integration/approval/approval-helpers.ts';
import { signIn } from './dashboard-helpers.ts';

const TOML = `
[providers.models.custom.fake]
uri = "\${MODEL_URI}"
model = "fake-model"

[providers.models.custom.writer]
uri = "\${MODEL_URI}"
model = "writer-model"

[reliability]
provider_retries = 0

[risk_profiles.default]

# Who may hand work to other agents: flipped from the dashboard.
[risk_profiles.ops]
delegation_policy = { mode = "forbidden" } # locked down until an operator says otherwise
auto_approve = ["delegate"]

[agents.main]
model_provider = "custom.fake"
risk_profile = "ops"

[agents.writer]
model_provider = "custom.writer"
risk_profile = "ops"
${LOCAL_PEERS}`;

describe.skipIf(!hasChromium)(
  `dashboard: delegation_policy flip${hasChromium ? '' : ` (skipped: ${NO_CHROMIUM})`}`,
  () => {
    let h: RuntimeHarness;
    let browser: Browser;
    beforeAll(async () => {
      h = await createRuntimeHarness('dash-flip', TOML, { ops: {}, reloadable: true });
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
      await h?.close();
    });

    /** main delegates once and answers `reply`; returns what the delegate call gave the model. */
    async function delegateOnce(reply: string, n: number): Promise<string> {
      h.server.script(
        [
          {
            toolCalls: [
              { id: `call_${reply}`, name: 'delegate', arguments: { agent: 'writer', prompt: 'draft' } },
            ],
          },
          { text: reply },
        ],
        { model: 'fake-model' },
      );
      await h.local.inject({ chat: 'dev', text: `go ${reply}`, senderId: 'alice' });
      await replyIn(h, 'dev', reply);
      const mains = h.server.requests.filter((r) => r.body.model === 'fake-model');
      return toolResultsOf(mains[2 * n - 1]!).at(-1)?.content ?? '';
    }

    it('refuses while forbidden; after Save "allow" in /ui/config the next delegation runs; comments stay', async () => {
      expect(await delegateOnce('one', 1)).toContain(
        'delegation is forbidden for caller "main" by risk profile "ops"',
      );

      const { page } = await signIn(browser, h, 'alice');
      await page.goto(`${h.opsUrl}/ui/config`);
      const form = page.locator('section[data-profile="ops"] form');
      await expect(form.locator('select').inputValue()).resolves.toBe('forbidden');
      await form.locator('select').selectOption('allow');
      await form.getByRole('button', { name: 'Save' }).click();
      await form.locator('output.ok').waitFor({ timeout: 20_000 });
      const said = await form.locator('output').textContent();
      expect(said).toBe(
        'Saved: risk_profiles.ops.delegation_policy.mode = "allow".\nReloaded by 1 of 1 process.',
      );
      await screenshot(page, 'dashboard-config-policy-allow');

      const file = readFileSync(h.configPath!, 'utf8');
      expect(file).toContain('# Who may hand work to other agents: flipped from the dashboard.');
      expect(file).toContain(
        'delegation_policy = { mode = "allow" } # locked down until an operator says otherwise',
      );
      // The page reads the live config: reloaded, it shows the new value.
      await page.reload();
      await expect(page.locator('section[data-profile="ops"] select').inputValue()).resolves.toBe('allow');

      h.server.script([{ text: 'drafted by writer' }], { model: 'writer-model' });
      expect(await delegateOnce('two', 2)).toContain('drafted by writer');
    });
  },
);
