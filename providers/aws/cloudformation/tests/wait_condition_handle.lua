-- Contract-test fixture of AWS::CloudFormation::WaitConditionHandle: no
-- properties, so nothing to update; the URL must be a handle the sim knows.
return {
  create = {},
  verify = function(aws, id)
    local s = aws.cloudformation.GetWaitConditionSignals({ Handle = id })
    assert(s.Url == id, "the handle's URL is " .. tostring(s.Url))
    assert(id:match("^https://cloudformation%-waitcondition%-"), "not a presigned handle URL: " .. id)
  end,
}
