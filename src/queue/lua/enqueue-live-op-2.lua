-- Queue op n of a turn's live messages, unless op n-1 is not handled yet: a slow chat skips edits rather than
-- queueing them up (live.md §2 step 5). A `last` op (the progress summary) is always queued.
-- KEYS[1] the turn's live state hash, KEYS[2] channel outbox stream
-- ARGV[1] op number, ARGV[2] '1' for a last op, ARGV[3..7] the outbox entry (outbox-entry.fragment.lua)
-- Returns 1 when queued, 0 when skipped.
--!include outbox-entry.fragment.lua
local done = tonumber(redis.call('HGET', KEYS[1], 'done') or '0') or 0
if ARGV[2] ~= '1' and done < tonumber(ARGV[1]) - 1 then return 0 end
outbox_add_argv(KEYS[2], 3)
return 1
