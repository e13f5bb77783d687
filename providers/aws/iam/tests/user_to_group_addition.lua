-- Contract-test fixture of AWS::IAM::UserToGroupAddition: users and groups
-- made in setup; the users, then the group, change in place.
return {
  setup = function(aws)
    for _, u in ipairs({ "contract-u1", "contract-u2" }) do aws.iam.CreateUser({ UserName = u }) end
    for _, g in ipairs({ "contract-a", "contract-b" }) do aws.iam.CreateGroup({ GroupName = g }) end
  end,
  create = { GroupName = "contract-a", Users = { "contract-u1" } },
  updates = {
    { Users = { "contract-u1", "contract-u2" } },   -- none
    { GroupName = "contract-b" },                   -- none
  },
  verify = function(aws, id, props)
    for _, g in ipairs({ "contract-a", "contract-b" }) do
      local members = {}
      for _, u in ipairs(aws.iam.GetGroup({ GroupName = g }).Users) do members[#members + 1] = u.UserName end
      if g == props.GroupName then
        assert(#members == #props.Users, g .. " has " .. table.concat(members, ","))
        for i, u in ipairs(props.Users) do assert(members[i] == u, g .. " lacks " .. u) end
      else
        assert(#members == 0, g .. " still has " .. table.concat(members, ","))
      end
    end
  end,
}
