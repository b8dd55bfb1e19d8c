# approvals.md: the localisable approval texts. English is the source catalog. Emoji prefixes, tokens,
# callback data and reply keywords are fixed and live in code (src/approval/).

## §12.1 copy strings: channel prompts (src/approval/copy.ts)

approval-heading = Tool approval required
approval-heading-shout = APPROVAL REQUIRED
approval-tool-label = Tool
approval-args-label = Args
approval-agent-label = Agent
# The value of the `Agent:` line for a delegated child (the line is `Agent: <alias>` otherwise).
approval-agent-delegated = { $target } (delegated by { $caller })
approval-button-approve = Approve
approval-button-deny = Deny
approval-button-always = Always
approval-tap-instruction = Tap a button below:
approval-reply-yes-no = Reply: "{ $yes_command }", "{ $no_command }", or "{ $always_command }"
# Not used by baton (kept from the source catalog).
approval-reply-approve-deny = Reply `{ $approve_command }` / `{ $deny_command }` / `{ $always_command }`.
approval-group-warning = This is a group chat, so everyone here can see this code and the tool arguments shown above. Only an authorized peer for this channel can answer.
approval-ack-approved = Approved
approval-ack-always = Always approved
approval-ack-denied = Denied
approval-ack-unknown = Unknown action
approval-discord-allow-once = Allow once
approval-discord-allow-session = Allow this session
approval-discord-always-allow = Always allow
# Other surfaces: not used by baton (kept from the source catalog).
approval-other-approve-tool = Approve { $tool }?
approval-other-allow-once = Allow once
approval-other-always-allow = Always allow
approval-other-reject = Reject
approval-other-reject-with-edit = Reject with edit
# An empty argument summary in a prompt (approvals.md §4).
approval-args-none = (none)
# baton: the `Reason:` line, after Args: every reason one prompt stands for, joined with "; ".
approval-reason-label = Reason
approval-reason-always-ask = always_ask lists { $tool }
approval-reason-not-auto-approved = { $tool } is not auto-approved
approval-reason-high-risk-command = high-risk command
approval-reason-command-writes = the command may write
approval-reason-medium-risk-command = medium-risk command
approval-reason-exec-config-write = writes a file that configures execution

## baton: the prompt once it is no longer pending (approvals.md §10.8), in place of its buttons

approval-outcome-approved = Approved by { $user }
approval-outcome-always = Always approved by { $user }
approval-outcome-denied = Denied by { $user }
approval-outcome-expired = Expired: no decision was made in time
approval-outcome-cancelled = Cancelled: the run that asked has ended
