---@meta
-- moonstack.digest: SHA-256 (host/lua/digest_binding.h, in C++; under plain
-- luajit lua-sdk/moonstack/digest.lua, the same function in Lua).
-- Definitions for lua-language-server only.

---@class moonstack.digest
local digest = {}

---The 32 raw bytes of the SHA-256 of `bytes`.
---@param bytes string
---@return string
function digest.sha256(bytes) end

return digest
