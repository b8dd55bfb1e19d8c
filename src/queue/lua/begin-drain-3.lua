-- A drain job starts: the conversation's inbox head, and the turn it begins (begin-turn.fragment.lua), in one step.
-- KEYS[1] conversation inbox list, KEYS[2] running-turns hash, KEYS[3] the history list of the job's agent
-- ARGV[1] conversation id, ARGV[2] the turn's run id, ARGV[3] the worker's id, ARGV[4] the job's agent,
-- ARGV[5] how many history entries, ARGV[6] dashboard pub/sub channel, ARGV[7] its change message
-- Returns { events in the inbox, the head event JSON or '', the turn id marked running or '', its history entries
-- (nil: not read) }.
--!include begin-turn.fragment.lua
local head = redis.call('LINDEX', KEYS[1], 0)
if not head then return { 0, '' } end
local turn, entries = begin_turn(head, KEYS[2], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], KEYS[3])
-- The open dashboard pages of this conversation learn of the running turn with the mark.
if turn ~= '' then redis.call('PUBLISH', ARGV[6], ARGV[7]) end
return { redis.call('LLEN', KEYS[1]), head, turn, entries }
