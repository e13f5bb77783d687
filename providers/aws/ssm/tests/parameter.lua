-- Contract-test fixture of AWS::SSM::Parameter: a String parameter with a
-- generated name; value, type, description and tags in place; a Name
-- (replacement).
return {
  create = { Type = "String", Value = "v1", Description = "contract", Tags = { team = "contract" } },
  updates = {
    { Value = "v2" },                                 -- none
    { Type = "StringList", Value = "a,b" },           -- none
    { Description = moonstack and moonstack.null or nil, Tags = { team = "other", env = "test" } }, -- none
    { Name = "/contract/renamed" },                   -- replace
  },
  verify = function(aws, id, props, attributes)
    local p = aws.ssm.GetParameter({ Name = id }).Parameter
    assert(p.Value == props.Value, "Value is " .. p.Value)
    assert(p.Type == props.Type, "Type is " .. p.Type)
    assert(attributes.Value == props.Value and attributes.Type == props.Type, "attributes differ")
    if props.Name then assert(id == props.Name, "id is " .. id) end
    local tags = {}
    for _, t in ipairs(aws.ssm.ListTagsForResource({ ResourceType = "Parameter", ResourceId = id }).TagList) do
      if t.Key:sub(1, 19) ~= "aws:cloudformation:" then tags[t.Key] = t.Value end
    end
    for k, v in pairs(props.Tags or {}) do assert(tags[k] == v, "tag " .. k) tags[k] = nil end
    assert(next(tags) == nil, "extra tag " .. tostring(next(tags)))
  end,
}
