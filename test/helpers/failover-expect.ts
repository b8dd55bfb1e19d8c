// The failover drill's assertions, shared by the Sentinel and the Cluster tests (failover-drill.ts runs it and
// stays free of vitest, for the bench).
import { expect } from 'vitest';
import { drillLine, type FailoverDeployment, runFailoverDrill } from './failover-drill.ts';
import { echoResponder, type RuntimeHarness } from './runtime-harness.ts';

/**
 * The drill of issue 19 as both failover tests run it (Sentinel and Cluster): 500 messages over 10 conversations,
 * the master killed at 150; then three messages after the promotion. Asserts the spec's figures.
 */
export async function expectCleanFailover(
  h: RuntimeHarness,
  deployment: FailoverDeployment,
  label: string,
): Promise<void> {
  h.server.respond(echoResponder());
  const figures = await runFailoverDrill(h, deployment, { chats: 10, perChat: 50, killAt: 150 });
  console.log(`${label}: ${drillLine(figures)}`);
  if (figures.redelivered.length) console.log(`redelivered: ${figures.redelivered.join('; ')}`);
  if (figures.lost.length) console.log(`lost: ${figures.lost.join(' ')}\n${figures.state.join('\n')}`);
  // The fleet keeps answering after the promotion.
  for (let i = 0; i < 3; i++) await h.local.inject({ chat: 'after', text: `after-${i}` });
  const after = await h.local.waitForReplies(3, { chat: 'after', timeoutMs: 60_000 });

  // A failover before the kill (a master stalled past its timeout) would be a different drill: say so first.
  expect(figures.failoversBeforeKill).toBe(0);
  expect(figures.refused).toEqual([]);
  expect(figures.accepted).toBe(500);
  expect(figures.lost).toEqual([]);
  expect(figures.duplicated).toEqual([]);
  expect(figures.outOfOrder).toEqual([]);
  expect(after.map((r) => r.text)).toEqual(['echo: after-0', 'echo: after-1', 'echo: after-2']);
}
