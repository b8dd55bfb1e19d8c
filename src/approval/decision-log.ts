// The §14 info line for every approval outcome (operator answers and runtime denials alike).
import type { Logger } from '../core/logger.ts';
import type { ApprovalSource, OperatorAnswer } from './record.ts';

export interface DecisionLogFields {
  approval_id: string | null;
  tool: string;
  args_summary: string;
  agent: string;
  caller?: string | null | undefined;
  run_id: string;
  /** Runtime outcomes (timed out, unreachable, unavailable, cancelled) are logged as `deny`. */
  decision: OperatorAnswer;
  /** Channel key and user id (and the username, for display); null for runtime denials. */
  decided_by: { channel: string; user: string; name?: string } | null;
  source: ApprovalSource;
}

/** Logs one decision at info level with the §14 fields; `caller` only when there is one. */
export function logApprovalDecision(logger: Pick<Logger, 'info'>, fields: DecisionLogFields): void {
  const { caller, ...rest } = fields;
  logger.info(caller ? { ...rest, caller } : rest, 'approval decided');
}
