// Where the dashboard shows a session's transcript: agent and session key as two encoded path segments (either may
// hold any text). Here, below both the operations API and the pages, so the tree's links and the pages agree.
export const transcriptUrl = (agent: string, sessionKey: string) =>
  `/ui/sessions/${encodeURIComponent(agent)}/${encodeURIComponent(sessionKey)}`;
