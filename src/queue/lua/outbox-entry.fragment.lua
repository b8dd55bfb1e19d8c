-- Fragment (included, never run alone): the one writer of an outbox entry. Its fields and the order of its ARGV
-- block are src/queue/outbox-entry.ts's, which also parses them back.
-- An entry: to (recipient JSON), text, conv and seq ('' for both outside a conversation's order), tag ('' or
-- `<field>:<JSON>`: an approval card request, a live message show, or the preview a reply replaces).
local function outbox_add(stream, to, text, conv, seq, tag)
  local field, value = string.match(tag or '', '^(%a+):(.*)$')
  if field then
    return redis.call('XADD', stream, '*', 'to', to, 'text', text, 'conv', conv, 'seq', seq, field, value)
  end
  return redis.call('XADD', stream, '*', 'to', to, 'text', text, 'conv', conv, 'seq', seq)
end

-- The entry whose ARGV block starts at index i.
local function outbox_add_argv(stream, i)
  return outbox_add(stream, ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4])
end
