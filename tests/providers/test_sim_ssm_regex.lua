-- The regex subset the SSM sim uses for AllowedPattern (Java syntax, whole
-- value must match).
local H = require("harness")
local T = H.suite("sim ssm regex")
local R = require("sim.ssm_regex")

local function yes(p, v) H.eq(R.test(p, v), true, p .. " ~ " .. v) end
local function no(p, v) H.eq(R.test(p, v), false, p .. " !~ " .. v) end

T.case("anchors, classes, shorthands, quantifiers", function()
  yes("^\\d+$", "12345")
  no("^\\d+$", "12a")
  no("\\d+", "12a") -- the whole value must match
  yes("^[a-zA-Z]{1,10}$", "abcDEF")
  no("^[a-zA-Z]{1,10}$", "abcdefghijk")
  no("^[a-zA-Z]{1,10}$", "")
  yes("[^0-9]*", "abc")
  no("[^0-9]*", "ab1")
  yes("\\w+-\\w+", "ab_1-cd")
  yes("a{3}", "aaa")
  no("a{3}", "aa")
  yes("a{2,}", "aaaa")
  yes("colou?r", "color")
  yes("colou?r", "colour")
  yes(".*", "")
  yes("a.c", "abc")
  no("a.c", "a\nc")
  yes("\\s\\S", " x")
  yes("[\\d.]+", "1.2.3")
  yes("[a-]+", "a-a")
  yes("\\.", ".")
  no("\\.", "x")
  yes("x*?y", "xxy") -- a lazy mark changes nothing for a yes/no match
end)

T.case("groups and alternation", function()
  yes("(ab)+", "ababab")
  no("(ab)+", "aba")
  yes("^(dev|prod)-[a-z]+$", "prod-web")
  no("^(dev|prod)-[a-z]+$", "test-web")
  yes("(?:a|b)*c", "abbac")
  yes("(a*)*b", "aaab") -- an empty repetition does not loop forever
  yes("a|", "")
end)

T.case("what is not supported is reported, not guessed", function()
  for _, p in ipairs({ "(?<=a)a", "\\bword", "\\p{L}+", "(a", "a)", "[abc", "\\1" }) do
    local ok, why = R.test(p, "a")
    H.eq(ok, nil, p)
    H.truthy(type(why) == "string", p .. " has a reason")
  end
end)

return T
