-- Clear a session's running-turn entry only if it still belongs to this run.
-- KEYS[1] running-turns hash
-- ARGV[1] session key, ARGV[2] run id, ARGV[3] dashboard pub/sub channel, ARGV[4] its change message
-- Returns 1 when cleared, 0 otherwise.
-- An unreadable entry (damaged, another version) belongs to no run that could ever clear it: cleared too.
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if not cur then return 0 end
local ok, v = pcall(cjson.decode, cur)
if not ok or type(v) ~= 'table' or v.runId == ARGV[2] then
  redis.call('HDEL', KEYS[1], ARGV[1])
  redis.call('PUBLISH', ARGV[3], ARGV[4])
  return 1
end
return 0
