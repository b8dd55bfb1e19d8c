-- Start showing one of a turn's live messages (live.md §2, §3), or start its answer's final edit of the preview.
-- KEYS[1] the turn's live state (hash: preview, progress = message refs; final; done = last op handled),
-- KEYS[2] the slot's busy mark (an op under way, possibly on another gateway)
-- ARGV[1] slot ('preview' | 'progress'), ARGV[2] 'op' or 'final', ARGV[3] busy mark ms, ARGV[4] state ttl secs
-- Returns { 'skip' } for an op on a preview its answer has taken over, { 'busy' } while another op holds the
-- slot, else { 'go', the slot's message ref JSON or '' }. An op takes the busy mark; the final edit marks the
-- preview final, so no later op touches it, and waits (the caller polls) while an op still holds it.
redis.call('EXPIRE', KEYS[1], ARGV[4])
if ARGV[2] == 'final' then
  redis.call('HSET', KEYS[1], 'final', '1')
  redis.call('EXPIRE', KEYS[1], ARGV[4])
  if redis.call('EXISTS', KEYS[2]) == 1 then return { 'busy' } end
  return { 'go', redis.call('HGET', KEYS[1], ARGV[1]) or '' }
end
if ARGV[1] == 'preview' and redis.call('HEXISTS', KEYS[1], 'final') == 1 then return { 'skip' } end
if not redis.call('SET', KEYS[2], '1', 'NX', 'PX', ARGV[3]) then return { 'busy' } end
return { 'go', redis.call('HGET', KEYS[1], ARGV[1]) or '' }
