// /ui/cost and /ui/config in real Chromium against a real gateway + worker: a turn's priced usage shows as today's
// and this month's spend; the config is shown with secrets redacted, and the delegation_policy selector saves
// through the injected config editor (src/config/edit-file.ts once config reload lands) or shows its diagnostics.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PolicyEditResult } from '../../src/web/ops/ops-pages-deps.ts';
import { hasChromium, launchBrowser, NO_CHROMIUM, screenshot } from '../helpers/browser.ts';
import { createRuntimeHarness, type RuntimeHarness, runtimeToml } from '../helpers/runtime-harness.ts';
import { replyIn } from '../integration/approval/approval-helpers.ts';
import { signIn } from './dashboard-helpers.ts';

const EXTRA = `
[cost]
daily_limit_usd = 5.0
monthly_limit_usd = 50.0

[cost.rates.providers.models.custom."fake-model"]
input_per_mtok = 1000.0
output_per_mtok = 2000.0

[risk_profiles.ops]
delegation_policy = { mode = "allow" }

[channels.telegram.bot]
bot_token = "123456:dashboard-secret-token-value"
enabled = false
`;

describe.skipIf(!hasChromium)(
  `dashboard: cost and config${hasChromium ? '' : ` (skipped: ${NO_CHROMIUM})`}`,
  () => {
    let h: RuntimeHarness;
    let browser: Browser;
    const edits: string[][] = [];
    let next: PolicyEditResult = { ok: true };
    beforeAll(async () => {
      h = await createRuntimeHarness('dash-cost', runtimeToml(EXTRA), {
        ops: {
          pages: {
            configPath: '/srv/baton/baton.toml',
            applyDelegationPolicyMode: async (path, profile, mode) => {
              edits.push([path, profile, mode]);
              return next;
            },
          },
        },
      });
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
      await h?.close();
    });

    it("shows a turn's spend today and this month, for the agent and shared, against the limits", async () => {
      const { page } = await signIn(browser, h, 'alice');
      await page.goto(`${h.opsUrl}/ui/cost`);
      const today = page.locator('tr[data-period="day"] [data-field="spent"]');
      await expect(today.textContent()).resolves.toBe('$0.00');
      // 1000 input tokens at $1000/Mtok + 500 output tokens at $2000/Mtok = $2.00.
      h.server.script([{ text: 'priced', usage: { inputTokens: 1000, outputTokens: 500 } }]);
      await h.local.inject({ chat: 'dev', text: 'hello', senderId: 'alice' });
      await replyIn(h, 'dev', 'priced');
      // The open page picks the spend up by itself.
      await page.locator('tr[data-period="day"] [data-field="spent"]', { hasText: '$2.00' }).waitFor();
      await expect(page.locator('tr[data-period="day"]').textContent()).resolves.toContain('$5.00');
      await expect(page.locator('tr[data-period="month"] [data-field="spent"]').textContent()).resolves.toBe(
        '$2.00',
      );
      await expect(page.locator('tr[data-period="month"]').textContent()).resolves.toContain('$50.00');
      await expect(page.locator('tr[data-agent="main"] [data-field="own"]').textContent()).resolves.toBe(
        '$2.00',
      );
      await screenshot(page, 'dashboard-cost');
    });

    it('shows the config redacted; the delegation_policy selector saves, or shows the diagnostics verbatim', async () => {
      const { page } = await signIn(browser, h, 'alice');
      await page.goto(`${h.opsUrl}/ui/config`);
      const html = await page.content();
      expect(html).not.toContain('dashboard-secret-token-value');
      await expect(page.locator('body').textContent()).resolves.toContain('[redacted]');
      const form = page.locator('section[data-profile="default"] form');
      await expect(form.locator('select').inputValue()).resolves.toBe('forbidden');
      await expect(page.locator('section[data-profile="ops"] select').inputValue()).resolves.toBe('allow');

      await form.locator('select').selectOption('allow');
      await form.getByRole('button', { name: 'Save' }).click();
      await form.locator('output.ok').waitFor();
      await expect(form.locator('output').textContent()).resolves.toBe(
        'Saved: risk_profiles.default.delegation_policy.mode = "allow".',
      );
      expect(edits).toEqual([['/srv/baton/baton.toml', 'default', 'allow']]);
      await screenshot(page, 'dashboard-config-saved');

      const diagnostics = [
        "Invalid config at 'agents.main.model_provider': unknown provider 'custom.gone'",
        'Config warning at \'risk_profiles.default.sandbox_backend\': "<firejail>" is not supported by baton; using "auto"',
      ];
      next = { ok: false, diagnostics };
      await form.locator('select').selectOption('forbidden');
      await form.getByRole('button', { name: 'Save' }).click();
      await form.locator('output.bad').waitFor();
      await expect(form.locator('output').textContent()).resolves.toBe(diagnostics.join('\n'));
      await screenshot(page, 'dashboard-config-refused');
    });
  },
);
