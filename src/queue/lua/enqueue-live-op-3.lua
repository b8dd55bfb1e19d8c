-- Queue op n of a turn's live messages, unless op n-1 is not handled yet: a slow chat skips edits rather than
-- queueing them up (live.md §2 step 5). A `last` op (the progress summary) is always queued. A run's first op also
-- lists the run under its turn, so the turn's answer finds the live messages of every run of it (a turn handed to
-- another worker runs again, as a new run).
-- KEYS[1] the run's live state hash, KEYS[2] channel outbox stream, KEYS[3] the turn's list of runs with live ops
-- ARGV[1] op number, ARGV[2] '1' for a last op, ARGV[3] the run id, ARGV[4] list ttl secs,
-- ARGV[5..9] the outbox entry (outbox-entry.fragment.lua)
-- Returns 1 when queued, 0 when skipped.
--!include outbox-entry.fragment.lua
local done = tonumber(redis.call('HGET', KEYS[1], 'done') or '0') or 0
if ARGV[2] ~= '1' and done < tonumber(ARGV[1]) - 1 then return 0 end
if ARGV[1] == '1' then
  redis.call('RPUSH', KEYS[3], ARGV[3])
  redis.call('EXPIRE', KEYS[3], ARGV[4])
end
outbox_add_argv(KEYS[2], 5)
return 1
