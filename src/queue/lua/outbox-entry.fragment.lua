-- Fragment (included, never run alone): the one writer of an outbox entry. Its fields and the order of its ARGV
-- block are src/queue/outbox-entry.ts's, which also parses them back.
-- An entry: to (recipient JSON), text, conv and seq ('' for both outside a conversation's order), tag ('' or
-- `<field>:<JSON>`: an approval card request, a live message show, the preview a reply replaces, or the files
-- sent with it), and an optional second tag (a reply that both replaces a preview and carries files).
local function outbox_add(stream, to, text, conv, seq, tag, tag2)
  local args = { 'XADD', stream, '*', 'to', to, 'text', text, 'conv', conv, 'seq', seq }
  for _, t in ipairs({ tag or '', tag2 or '' }) do
    local field, value = string.match(t, '^(%a+):(.*)$')
    if field then
      args[#args + 1] = field
      args[#args + 1] = value
    end
  end
  return redis.call(unpack(args))
end

-- The entry whose ARGV block starts at index i.
local function outbox_add_argv(stream, i)
  return outbox_add(stream, ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4])
end
