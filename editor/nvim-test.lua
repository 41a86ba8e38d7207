-- End-to-end test of gopls-lockvet in a real editor: Neovim 0.7+ as the LSP client.
--
-- Run by editor/test-nvim:
--   nvim --headless -u NONE -i NONE -n -c 'luafile editor/nvim-test.lua' locktest.go
--
-- Environment:
--   LOCKVET_GOPLS     the gopls-lockvet binary (required)
--   LOCKVET_ROOT      the temporary module's directory (default: the file's directory)
--   LOCKVET_TIMEOUT   seconds to wait for each server reply (default 60)
--
-- Only APIs present in Neovim 0.7.2 (Debian 12) are used: vim.lsp.start_client,
-- vim.lsp.buf_attach_client, vim.lsp.buf_request_sync, vim.diagnostic.
-- Results go to stdout as PASS/FAIL lines; the exit status is 0 only if all pass.

local failures = 0
local client_id

local function out(line)
  io.stdout:write(line .. '\n')
  io.stdout:flush()
end

local function pass(what) out('PASS: ' .. what) end

local function finish()
  if client_id then
    vim.lsp.stop_client(client_id)
    vim.wait(3000, function() return vim.lsp.client_is_stopped(client_id) end, 50)
  end
  if failures == 0 then
    out('PASS: nvim-test')
    vim.cmd('qall!')
  else
    out('FAIL: nvim-test (' .. failures .. ' failure(s))')
    vim.cmd('cquit 1')
  end
end

-- fail reports a failure and stops the test: later steps depend on earlier ones.
local function fail(what, detail)
  failures = failures + 1
  out('FAIL: ' .. what .. (detail and (': ' .. detail) or ''))
  finish()
  error('stopped', 0) -- not reached: finish exits
end

local function run()
  local gopls = os.getenv('LOCKVET_GOPLS')
  if not gopls or gopls == '' or vim.fn.executable(gopls) ~= 1 then
    fail('LOCKVET_GOPLS is not an executable', tostring(gopls))
  end
  local timeout_ms = (tonumber(os.getenv('LOCKVET_TIMEOUT') or '') or 60) * 1000
  local bufnr = vim.api.nvim_get_current_buf()
  local fname = vim.api.nvim_buf_get_name(bufnr)
  if fname == '' then fail('no file given to nvim') end
  local root = os.getenv('LOCKVET_ROOT') or vim.fn.fnamemodify(fname, ':p:h')
  local uri = vim.uri_from_bufnr(bufnr)
  vim.bo[bufnr].filetype = 'go'

  -- Keep the raw LSP diagnostics: the code action request must send them back.
  local raw = {}
  local server_log = {}
  client_id = vim.lsp.start_client({
    name = 'gopls-lockvet',
    cmd = { gopls },
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = 'locktest' } },
    handlers = {
      ['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
        if result and result.uri == uri then raw = result.diagnostics or {} end
        return vim.lsp.handlers['textDocument/publishDiagnostics'](err, result, ctx, config)
      end,
      ['window/logMessage'] = function(_, result)
        if result and result.message then table.insert(server_log, result.message) end
      end,
      ['window/showMessage'] = function(_, result)
        if result and result.message then table.insert(server_log, result.message) end
      end,
    },
    on_exit = function(code, signal)
      if code ~= 0 and not vim.v.exiting then
        out(string.format('INFO: gopls exited with code %s signal %s', tostring(code), tostring(signal)))
      end
    end,
  })
  if not client_id then fail('start gopls-lockvet', gopls) end
  if not vim.lsp.buf_attach_client(bufnr, client_id) then fail('attach gopls-lockvet to the buffer') end
  pass('gopls-lockvet started and attached')

  -- 1. The diagnostic, through vim.diagnostic.
  local function lockvet_diag()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if d.source == 'unsafedel' then return d end
    end
  end
  if not vim.wait(timeout_ms, function() return lockvet_diag() ~= nil end, 100) then
    local seen = {}
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      table.insert(seen, string.format('%s:%d: %s', tostring(d.source), d.lnum + 1, d.message))
    end
    fail('unsafedel diagnostic within ' .. timeout_ms / 1000 .. 's',
      'got [' .. table.concat(seen, '; ') .. '] server log: ' .. table.concat(server_log, ' | '):sub(1, 2000))
  end
  local d = lockvet_diag()
  local del_line = vim.fn.search('rdb.Del(ctx, key)', 'nw') - 1 -- 0-based
  if d.lnum ~= del_line then
    fail('unsafedel diagnostic on the DEL line', string.format('line %d, want %d', d.lnum + 1, del_line + 1))
  end
  if not d.message:find('lock released with plain DEL', 1, true) then
    fail('unsafedel diagnostic message', d.message)
  end
  pass(string.format('diagnostic %s:%d:%d [%s] %s', vim.fn.fnamemodify(fname, ':t'), d.lnum + 1, d.col + 1, d.source, d.message))

  local lsp_diag
  for _, r in ipairs(raw) do
    if r.source == 'unsafedel' then lsp_diag = r end
  end
  if not lsp_diag then fail('raw LSP diagnostic from publishDiagnostics') end

  -- 2. The quick fix, at the diagnostic's range.
  local params = {
    textDocument = { uri = uri },
    range = lsp_diag.range,
    context = { diagnostics = { lsp_diag }, only = { 'quickfix' } },
  }
  local replies, err = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', params, timeout_ms)
  if not replies then fail('textDocument/codeAction', tostring(err)) end
  local reply = replies[client_id]
  if not reply then fail('textDocument/codeAction', 'no reply from gopls-lockvet') end
  if reply.error then fail('textDocument/codeAction', vim.inspect(reply.error)) end
  local titles, action = {}, nil
  for _, a in ipairs(reply.result or {}) do
    table.insert(titles, string.format('%q (%s)', a.title, tostring(a.kind)))
    if a.title == "delete the lock only if it still holds the owner's value" then action = a end
  end
  if not action then fail('lockvet quick fix offered', 'actions: [' .. table.concat(titles, ', ') .. ']') end
  if action.kind ~= 'quickfix' then fail('lockvet fix is a quickfix code action', tostring(action.kind)) end
  local covers = false
  for _, ad in ipairs(action.diagnostics or {}) do
    if ad.source == 'unsafedel' then covers = true end
  end
  if not covers then fail('quick fix names the unsafedel diagnostic', vim.inspect(action.diagnostics)) end
  pass('quick fix offered: ' .. action.title)

  -- 3. Apply it: resolve a lazy action, or run its command (the server then sends
  -- workspace/applyEdit, which Neovim's default handler applies).
  local client = vim.lsp.get_client_by_id(client_id)
  local how
  if not action.edit and not action.command and action.data ~= nil then
    local res, rerr = vim.lsp.buf_request_sync(bufnr, 'codeAction/resolve', action, timeout_ms)
    local r = res and res[client_id]
    if not r or r.error or not r.result then
      fail('codeAction/resolve', vim.inspect(rerr or (r and r.error)))
    end
    action = r.result
    how = 'resolved, '
  end
  local before = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n')
  if action.edit then
    vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
    how = (how or '') .. 'workspace edit'
  end
  if action.command then
    local cmd = type(action.command) == 'table' and action.command or action
    local res, cerr = vim.lsp.buf_request_sync(bufnr, 'workspace/executeCommand',
      { command = cmd.command, arguments = cmd.arguments }, timeout_ms)
    local r = res and res[client_id]
    if not r or r.error then fail('workspace/executeCommand ' .. tostring(cmd.command), vim.inspect(cerr or (r and r.error))) end
    how = (how or '') .. 'command ' .. cmd.command
  end
  if not how then fail('quick fix carries an edit or a command', vim.inspect(action)) end

  local function text() return table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n') end
  local want_call = 'unlockScript.Run(ctx, rdb, []string{key}, token)'
  local want_decl = 'var unlockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then'
  vim.wait(timeout_ms, function() return text():find(want_call, 1, true) ~= nil end, 50)
  local after = text()
  if after == before then fail('applying the quick fix changes the buffer') end
  if not after:find(want_call, 1, true) then fail('buffer has the compare-and-delete call', after) end
  if not after:find(want_decl, 1, true) then fail('buffer has the unlock script', after) end
  if after:find('rdb.Del(ctx, key)', 1, true) then fail('buffer no longer has the plain DEL', after) end
  pass('quick fix applied (' .. how .. '): ' .. want_call)

  -- 4. The edited buffer (unsaved: gopls reads it from the editor) has no finding left.
  local gone = vim.wait(timeout_ms, function() return lockvet_diag() == nil end, 100)
  if not gone then fail('unsafedel diagnostic cleared after the fix', lockvet_diag().message) end
  pass('diagnostic cleared after the fix')

  finish()
end

local ok, e = pcall(run)
if not ok and e ~= 'stopped' then
  failures = failures + 1
  out('FAIL: nvim-test raised: ' .. tostring(e))
  finish()
end
