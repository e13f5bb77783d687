-- Update behaviour: static and function-decided, the most-severe rule and
-- the changed-property list.
local H = require("harness")
local P = require("moonstack.provider")
local V = require("moonstack.values")
local T = H.suite("update")

local function noop() end

-- An instance-like type: InstanceType is "some" on EBS-backed images and
-- "replace" on instance-store ones (the image's root device decides).
local seen_args
local instance = P.define({
  type = "AWS::EC2::Instance",
  properties = {
    P.string "ImageId" { required = true, update = "replace" },
    P.string "InstanceType" { update = function(old, new, ctx, old_props, new_props)
      seen_args = { old = old, new = new, ctx = ctx, image = new_props.ImageId }
      return ctx.world.root_device[new_props.ImageId] == "ebs" and "some" or "replace"
    end },
    P.list(P.string) "SecurityGroupIds" { update = "none" },
    P.string "UserData" { update = "some" },
    P.string "Tenancy" { update = "unsupported" },
    P.tags "Tags" { update = "none" },
  },
  attributes = { "PrivateIp" },
  create = noop, update = noop, delete = noop,
}, "instance.lua")

local ctx = { world = { root_device = { ["ami-ebs"] = "ebs", ["ami-store"] = "instance-store" } } }

T.case("static behaviours", function()
  H.eq(instance:update_behavior("ImageId", "a", "b", ctx), "replace")
  H.eq(instance:update_behavior("SecurityGroupIds", {}, { "sg-1" }, ctx), "none")
  H.eq(instance:update_behavior("UserData", "a", "b", ctx), "some")
  H.eq(instance:update_behavior("Tenancy", "a", "b", ctx), "unsupported")
end)

T.case("a function decides at run time, with the whole property tables", function()
  local old = { ImageId = "ami-ebs", InstanceType = "t3.micro" }
  local new = { ImageId = "ami-ebs", InstanceType = "t3.large" }
  H.eq(instance:update_behavior("InstanceType", "t3.micro", "t3.large", ctx, old, new), "some")
  H.same(seen_args, { old = "t3.micro", new = "t3.large", ctx = ctx, image = "ami-ebs" })
  new.ImageId = "ami-store"
  H.eq(instance:update_behavior("InstanceType", "t3.micro", "t3.large", ctx, old, new), "replace")
  H.eq(instance:property("InstanceType").update, "conditional", "a preview says Conditional")
end)

T.case("a function returning nonsense is a provider bug naming the file", function()
  local d = P.define({
    type = "AWS::T::T", properties = { P.string "X" { update = function() return "maybe" end } },
    create = noop, update = noop, delete = noop,
  }, "t.lua")
  H.raises(function() d:update_behavior("X", "a", "b") end,
    't.lua: property X: update function returned "maybe" (expected "none", "some", "replace" or "unsupported")')
  H.raises(function() d:update_behavior("Nope", "a", "b") end, "t.lua: property Nope is not declared")
end)

T.case("most severe: none < some < replace < unsupported", function()
  H.eq(P.most_severe("none", "some"), "some")
  H.eq(P.most_severe("replace", "some"), "replace")
  H.eq(P.most_severe("replace", "unsupported"), "unsupported")
  H.eq(P.most_severe(nil, "none"), "none")
  H.eq(P.most_severe("none", nil), "none")
  H.eq(P.most_severe(nil, nil), nil)
end)

local base = {
  ImageId = "ami-ebs", InstanceType = "t3.micro", SecurityGroupIds = { "sg-1", "sg-2" },
  UserData = "echo", Tags = { { Key = "Name", Value = "web" } },
}

T.case("no change: nil and an empty list", function()
  local b, changed, details = instance:change(base, V.deep_copy(base), ctx)
  H.eq(b, nil)
  H.same(changed, {})
  H.same(details, {})
end)

T.case("one change: its behaviour", function()
  local new = V.deep_copy(base)
  new.SecurityGroupIds = { "sg-1", "sg-3" }
  local b, changed, details = instance:change(base, new, ctx)
  H.eq(b, "none")
  H.same(changed, { "SecurityGroupIds" })
  H.same(details, { { name = "SecurityGroupIds", behavior = "none" } })
end)

T.case("several changes: the most severe wins, names in declaration order", function()
  local new = V.deep_copy(base)
  new.Tags = { { Key = "Name", Value = "api" } }
  new.UserData = "echo 2"
  new.InstanceType = "t3.large"
  local b, changed = instance:change(base, new, ctx)
  H.eq(b, "some")
  H.same(changed, { "InstanceType", "UserData", "Tags" })
  new.ImageId = "ami-store"
  b, changed = instance:change(base, new, ctx)
  H.eq(b, "replace")
  H.same(changed, { "ImageId", "InstanceType", "UserData", "Tags" })
  new.Tenancy = "dedicated"
  b = instance:change(base, new, ctx)
  H.eq(b, "unsupported")
end)

T.case("added and removed properties are changes", function()
  local new = V.deep_copy(base)
  new.UserData = nil
  local b, changed = instance:change(base, new, ctx)
  H.eq(b, "some"); H.same(changed, { "UserData" })
  b, changed = instance:change(new, base, ctx)
  H.eq(b, "some"); H.same(changed, { "UserData" })
end)

T.case("structural comparison: equal copies and JSON null are no change", function()
  local null = {}
  V.set_null(null)
  local ok, err = pcall(function()
    local old = V.deep_copy(base)
    local new = V.deep_copy(base)
    new.UserData = nil
    old.UserData = null
    H.eq((instance:change(old, new, ctx)), nil, "null equals absent")
    local list_order = V.deep_copy(base)
    list_order.SecurityGroupIds = { "sg-2", "sg-1" }
    H.same(select(2, instance:change(base, list_order, ctx)), { "SecurityGroupIds" }, "list order matters")
  end)
  V.set_null(nil)
  if not ok then error(err, 0) end
end)

T.case("undeclared properties follow additional_properties", function()
  local custom = P.define({
    type = "Custom::Thing",
    properties = { P.string "ServiceToken" { required = true, update = "replace" } },
    additional_properties = "none",
    create = noop, update = noop, delete = noop,
  }, "custom.lua")
  local b, changed = custom:change({ ServiceToken = "t", B = 1, A = 1 }, { ServiceToken = "t", B = 2, A = 2, C = 0 })
  H.eq(b, "none")
  H.same(changed, { "A", "B", "C" }, "alphabetical")
  H.eq(custom.additional_properties, "none")
  b, changed = custom:change({ ServiceToken = "t" }, { ServiceToken = "u", X = 1 })
  H.eq(b, "replace"); H.same(changed, { "ServiceToken", "X" })

  local fn = P.define({
    type = "Custom::Fn", properties = {},
    additional_properties = function(old, new) return new == "big" and "replace" or "none" end,
    create = noop, update = noop, delete = noop,
  }, "fn.lua")
  H.eq(fn.additional_properties, "conditional")
  H.eq((fn:change({ Size = "small" }, { Size = "big" })), "replace")
  H.eq((fn:change({ Size = "big" }, { Size = "small" })), "none")
end)

T.case("an undeclared property in change() without additional_properties is an error", function()
  H.raises(function() instance:change({}, { Foo = 1 }, ctx) end, "instance.lua: property Foo is not declared")
end)

return T
