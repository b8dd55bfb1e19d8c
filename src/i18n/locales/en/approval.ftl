# approvals.md §12.1, baton rows: answers to a press or reply that changes nothing. Code adds the "⚠️ " prefix.
approval-late-press = This approval request has expired or was already decided.
approval-unauthorised = You are not authorized to answer this approval request.
