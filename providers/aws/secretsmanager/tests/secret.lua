-- Contract-test fixture of AWS::SecretsManager::Secret (../secret.lua): a new
-- value and description in place, then another name (replacement).
return {
  create = { Name = "app-db", SecretString = "one", Tags = { { Key = "team", Value = "a" } } },
  updates = {
    { Name = "app-db", SecretString = "two", Description = "rotated", Tags = { { Key = "team", Value = "b" } } },  -- none
    { Name = "app-db-2", SecretString = "two" },                                                                   -- replace
  },
  verify = function(aws, id, props, attributes)
    local v = aws.secretsmanager.GetSecretValue({ SecretId = id })
    assert(v.SecretString == props.SecretString, "SecretString is " .. tostring(v.SecretString))
    assert(v.Name == props.Name, "Name is " .. tostring(v.Name))
    assert(attributes.Id == id, "Id is " .. tostring(attributes.Id))
  end,
}
