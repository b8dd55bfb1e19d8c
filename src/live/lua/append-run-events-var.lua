-- Append the run events of one flush (live.md §1): each tree's events go in one stream entry (a JSON array)
-- numbered from the tree's counter; each new turn joins its session's bounded index of recent turns (§6); then
-- the readers are woken once with every tree's root id, and once with the sessions that got a new turn.
-- KEYS: for each tree, its event stream then its sequence counter (2 keys per tree); then, for each new turn, its
-- session's recent-turns index (a sorted set: root run id -> start ms). Every key sits under a partition tag (a
-- tree's its root's partition, an index its session's) and every key of one call in one hash slot: the writer
-- (run-event-log.ts) makes one call per slot, so a flush is one call per partition it touches (one in all with
-- the default one partition).
-- ARGV[1] ttl seconds, ARGV[2] approximate max stream entries, ARGV[3] pub/sub channel of the trees,
-- ARGV[4] number of trees, ARGV[5] recent-turns index ttl seconds, ARGV[6] turns kept per session,
-- ARGV[7] pub/sub channel of the sessions with a new turn; then for each tree: its root id, its event count n,
-- and the events as one JSON array (each without what its tree implies, src/live/stored-event.ts); then for each
-- new turn: its root id, its start ms, its session key.
-- An entry's fields: seq (the sequence number of its first event; the others follow it), events.
-- Returns the number of events written.
local written = 0
local roots = {}
local trees = tonumber(ARGV[4])
local a = 8
for t = 1, trees do
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
local sessions = {}
for k = 2 * trees + 1, #KEYS do
  redis.call('ZADD', KEYS[k], ARGV[a + 1], ARGV[a])
  redis.call('ZREMRANGEBYRANK', KEYS[k], 0, -(tonumber(ARGV[6]) + 1))
  redis.call('EXPIRE', KEYS[k], ARGV[5])
  sessions[#sessions + 1] = ARGV[a + 2]
  a = a + 3
end
if #roots > 0 then redis.call('PUBLISH', ARGV[3], table.concat(roots, '\n')) end
if #sessions > 0 then redis.call('PUBLISH', ARGV[7], cjson.encode(sessions)) end
return written
