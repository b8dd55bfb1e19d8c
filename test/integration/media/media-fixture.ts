// Shared pieces of the worker-side attachment tests: a tiny real PNG, the TOML, and one message's round trip
// through the local channel, gateway intake, Redis and a worker turn.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { LocalFile } from '../../../channels/local/local-adapter.ts';
import { conversationId } from '../../../src/channel-host/types.ts';
import { inboxRelativePath } from '../../../src/media/safe-name.ts';
import type { RecordedRequest } from '../../fakes/model-server.ts';
import { localPeers, type RuntimeHarness } from '../../helpers/runtime-harness.ts';

/** A valid 1×1 PNG: its signature makes it an image whatever its name or claimed type. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * `main` on `custom.fake` (`fake-model`, vision as `vision` says) with `custom.plain` (`plain-model`, no vision
 * by baton's table) as its fallback; `extra` is appended (e.g. [transcription]).
 */
export const mediaToml = (o: { vision?: boolean; extra?: string } = {}) => `
[providers.models.custom.fake]
uri = "\${MODEL_URI}"
model = "fake-model"
${o.vision === undefined ? '' : `vision = ${o.vision}`}
fallback = ["custom.plain"]

[providers.models.custom.plain]
uri = "\${MODEL_URI}"
model = "plain-model"

[reliability]
provider_retries = 0

[risk_profiles.default]

[agents.main]
model_provider = "custom.fake"
risk_profile = "default"
${localPeers()}
${o.extra ?? ''}
`;

export interface Sent {
  eventId: string;
  conversation: string;
  /** The model requests of this turn. */
  requests: RecordedRequest[];
  /** A name's workspace-relative inbox path for this message. */
  rel(name: string): string;
}

/** Injects a message with files into `chat` and waits for its reply. */
export async function sendFiles(
  h: RuntimeHarness,
  chat: string,
  files: LocalFile[],
  text = '',
  eventId = `evt-${chat}`,
): Promise<Sent> {
  const before = h.server.requests.length;
  const result = await h.local.inject({ chat, text, eventId, files });
  if (!result.accepted) throw new Error(`message not accepted: ${JSON.stringify(result)}`);
  await h.local.waitForReplies(1, { chat, timeoutMs: 30_000 });
  const conversation = conversationId('local.test', chat);
  return {
    eventId,
    conversation,
    requests: h.server.requests.slice(before),
    rel: (name) => inboxRelativePath(conversation, eventId, name),
  };
}

/** Every regular file under `root`, relative to it, sorted. */
export function filesUnder(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(relative(root, path));
    }
  };
  walk(root);
  return out.sort();
}

/** The agent `main`'s workspace under a data dir. */
export const workspaceOf = (dataDir: string) => join(dataDir, 'workspaces', 'main');
