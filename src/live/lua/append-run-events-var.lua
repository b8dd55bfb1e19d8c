-- Append the run events of one flush (live.md §1): each tree's events go in one stream entry (a JSON array)
-- numbered from the tree's counter; then the readers are woken once with every tree's root id.
-- KEYS: for each tree, its event stream then its sequence counter (2 keys per tree; each pair shares the tree's
-- hash tag, so a Cluster caller sends one call per slot).
-- ARGV[1] ttl seconds, ARGV[2] approximate max stream entries, ARGV[3] pub/sub channel, then for each tree:
-- its root id, its event count n, and the events as one JSON array.
-- An entry's fields: seq (the sequence number of its first event; the others follow it), events.
-- Returns the number of events written.
local written = 0
local roots = {}
local a = 4
for t = 1, #KEYS / 2 do
  local stream, counter = KEYS[2 * t - 1], KEYS[2 * t]
  local n = tonumber(ARGV[a + 1])
  roots[t] = ARGV[a]
  local last = redis.call('INCRBY', counter, n)
  redis.call('XADD', stream, 'MAXLEN', '~', ARGV[2], '*', 'seq', last - n + 1, 'events', ARGV[a + 2])
  redis.call('EXPIRE', stream, ARGV[1])
  redis.call('EXPIRE', counter, ARGV[1])
  written = written + n
  a = a + 3
end
if #roots > 0 then redis.call('PUBLISH', ARGV[3], table.concat(roots, '\n')) end
return written
