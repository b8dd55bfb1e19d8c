// The fleet's /metrics count a prompt and the operator decision that settles it, whichever process wins the
// compare-and-set: here the gateway that receives the press (the worker only created the record).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRuntimeHarness, type RuntimeHarness, runtimeToml } from '../../helpers/runtime-harness.ts';
import { waitFor } from '../../helpers/wait.ts';
import { cardIn, press, replyIn, scriptWrites } from './approval-helpers.ts';

const TOKEN = 'metrics-test-api-token';
let h: RuntimeHarness;
beforeAll(async () => {
  h = await createRuntimeHarness('approval-metrics', runtimeToml('', ['alice']), {
    ops: { apiToken: TOKEN },
  });
});
afterAll(() => h.close());

const metricsText = async () => {
  const res = await fetch(`${h.opsUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  return res.text();
};
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
};

it('counts the prompt and the approval decided on the gateway', async () => {
  scriptWrites(h, 'm1.txt');
  await h.local.inject({ chat: 'm1', text: 'write it', senderId: 'alice' });
  const card = await cardIn(h, 'm1');
  expect(await press(h, card, 'approve', 'alice')).toMatchObject({ accepted: true });
  await replyIn(h, 'm1', 'done');
  let text = '';
  await waitFor(
    async () => {
      text = await metricsText();
      return sample(text, 'baton_approval_decision_seconds_count{outcome="approved"}') === 1;
    },
    20_000,
    'the approved decision on /metrics',
    100,
  );
  expect(sample(text, 'baton_approval_prompts_total{channel="local.test"}')).toBe(1);
});
