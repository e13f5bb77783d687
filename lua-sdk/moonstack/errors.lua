-- moonstack.errors: the error values hooks raise.
--
-- A provider fails a resource by raising an error carrying AWS's message,
-- which the engine records as the resource's status reason. A table (not a
-- string) is raised so that no "file:line:" prefix is glued onto AWS's text
-- and so an error code can travel with it.

local M = {}

---@class moonstack.Error
---@field message string  AWS's message, shown as the resource's status reason
---@field code string?    a handler error code (e.g. "InvalidRequest", "NotFound", "AlreadyExists", "ResourceConflict", "NotStabilized", "GeneralServiceException")

local ErrorMT = {}
ErrorMT.__index = ErrorMT
ErrorMT.__tostring = function(e) return e.message end

---Build an error value without raising it.
---@param message string
---@param code string?
---@return moonstack.Error
function M.new(message, code)
  if type(message) ~= "string" then message = tostring(message) end
  if code ~= nil and type(code) ~= "string" then code = tostring(code) end
  return setmetatable({ message = message, code = code }, ErrorMT)
end

---Raise an error with AWS's message (and optionally a handler error code).
---@param message string
---@param code string?
function M.fail(message, code)
  error(M.new(message, code), 0)
end

---True for an error value built by `new` / raised by `fail`.
---@param e any
---@return boolean
function M.is_error(e)
  return type(e) == "table" and getmetatable(e) == ErrorMT
end

---Message and code of anything a hook raised: an SDK error, a string (a Lua
---runtime error, with its position), or any other value.
---@param e any
---@return string message
---@return string? code
function M.message(e)
  if type(e) == "table" and type(e.message) == "string" then
    return e.message, type(e.code) == "string" and e.code or nil
  end
  if type(e) == "string" then return e, nil end
  return tostring(e), nil
end

return M
