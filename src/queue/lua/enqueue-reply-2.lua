-- Queue an entry (a reply or an approval card request) on its channel's outbox stream, once per idempotency key.
-- KEYS[1] idempotency key, KEYS[2] channel outbox stream
-- ARGV[1] idempotency ttl seconds (0: not deduplicated, for card requests: each one is its own),
-- ARGV[2..6] the outbox entry (outbox-entry.fragment.lua). Returns 1 when queued, 0 for a repeat.
--!include outbox-entry.fragment.lua
if ARGV[1] ~= '0' and redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) == false then return 0 end
outbox_add_argv(KEYS[2], 2)
return 1
