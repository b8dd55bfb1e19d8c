// The background task's workspace artifact: identity and output only, written atomically (delegate.md §11.4).
import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const artifactPath = (workspace: string, taskId: string) =>
  join(workspace, 'delegate_results', `${taskId}.json`);

/** Writes `<task_id>.json.<uuid>.tmp` then renames it, so a reader never sees a half-written file. */
export async function writeArtifact(
  workspace: string,
  taskId: string,
  agent: string,
  output: string | null,
): Promise<void> {
  const path = artifactPath(workspace, taskId);
  await mkdir(join(workspace, 'delegate_results'), { recursive: true });
  const tmp = `${path}.${randomUUID()}.tmp`;
  await writeFile(tmp, JSON.stringify({ task_id: taskId, agent, output }, null, 2));
  await rename(tmp, path);
}
