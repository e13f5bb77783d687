-- Contract-test fixture of AWS::StepFunctions::StateMachine: a generated
-- name with a Pass definition; the definition and role in place; a name
-- (replacement).
local B = '{"StartAt":"B","States":{"B":{"Type":"Succeed"}}}'
return {
  create = { RoleArn = "arn:aws:iam::123456789012:role/sfn",
             DefinitionString = '{"StartAt":"A","States":{"A":{"Type":"Pass","End":true}}}' },
  updates = {
    { RoleArn = "arn:aws:iam::123456789012:role/other", DefinitionString = B },
    { RoleArn = "arn:aws:iam::123456789012:role/other", DefinitionString = B, StateMachineName = "contract-renamed" },  -- replace
  },
  verify = function(aws, id, props, attributes)
    local m = aws.states.DescribeStateMachine { stateMachineArn = id }
    assert(m.roleArn == props.RoleArn, "role " .. tostring(m.roleArn))
    assert(attributes.Arn == id and id == "arn:aws:states:us-east-1:123456789012:stateMachine:" .. attributes.Name,
      "arn " .. id)
    assert(m.definition == props.DefinitionString, "definition " .. m.definition)
  end,
}
