-- moonstack.messages: AWS's message texts, in one place.
--
-- CloudFormation has two families of property-validation messages:
--   * the older ("legacy") resource types report e.g.
--       Encountered unsupported property Foo
--       Value of property Foo must be of type String
--   * registry (schema-based) resource types wrap a JSON-schema message:
--       Properties validation failed for resource Sub with message: #: required key [VpcId] not found
-- DESIGN.md fixes the first for undeclared properties; the legacy family has
-- no message for a missing required property that we could verify, so that
-- one (and enum / pattern failures) use the registry family.
--
-- Each function names its source. "verified" = seen verbatim in a public AWS
-- page or a user's report of AWS output; "extrapolated" = same family and
-- shape as a verified one, with another type or field filled in.

local M = {}

-- Legacy family ------------------------------------------------------------

---verified: AWS Knowledge Center "cloudformation-template-validation"
---("Encountered unsupported property XXXXXXXX"); aws/aws-sdk#740.
function M.unsupported_property(name)
  return "Encountered unsupported property " .. name
end

---verified for String (cloudtools/troposphere#328) and List
---(cloudtools/troposphere#336); Boolean and Integer extrapolated.
function M.must_be_type(name, type_label)
  return "Value of property " .. name .. " must be of type " .. type_label
end

---verified: cloudtools/troposphere#64
---("Encountered non numeric value for property AllocatedStorage").
function M.non_numeric(name)
  return "Encountered non numeric value for property " .. name
end

---verified: blog.mikebabineau.com 2014-05-05
---("Value of property Parameters must be an object").
function M.must_be_object(name)
  return "Value of property " .. name .. " must be an object"
end

---verified for String: gene1wood/cfnlambda#5 ("Value of property Data must
---be an object with String (or simple type) properties"); other value types
---extrapolated.
function M.must_be_object_of(name, type_label)
  if type_label == "String" then
    return "Value of property " .. name .. " must be an object with String (or simple type) properties"
  end
  return "Value of property " .. name .. " must be an object with " .. type_label .. " properties"
end

-- Registry (JSON schema) family ----------------------------------------------

---verified: aws-cloudformation/iac-model-evaluation#29 ("Properties
---validation failed for resource PatchBaseLineWindows2019 with message: #:
---required key [Name] not found"). Without a logical ID the inner message is
---returned alone.
function M.schema(logical_id, inner)
  if type(logical_id) ~= "string" or logical_id == "" then return inner end
  return "Properties validation failed for resource " .. logical_id .. " with message: " .. inner
end

---verified (see `schema`); several missing keys are listed one per line, as
---in org-formation/aws-resource-providers#105.
function M.required_key(path, key)
  return path .. ": required key [" .. key .. "] not found"
end

---verified: aws-samples/annotate-medical-images-in-dicom-server-and-build-ml-models-on-amazon-sagemaker#6
---("#/ContainerDefinitions/0/LinuxParameters: extraneous key [initProcessEnabled] is not permitted").
function M.extraneous_key(path, key)
  return path .. ": extraneous key [" .. key .. "] is not permitted"
end

---verified: aws-cloudformation-resource-providers-logs#94 and
---aws/copilot-cli#3946 ("#/RetentionInDays: failed validation constraint
---for keyword [enum]"): the value is not named.
function M.enum(path)
  return path .. ": failed validation constraint for keyword [enum]"
end

---verified wording: AWS Knowledge Center "cloudformation-resolve-model-val-failed"
---("#PropertyName: Failed validation constraint for keyword [pattern]"),
---with the registry's "#/Name" path.
function M.pattern(path)
  return path .. ": failed validation constraint for keyword [pattern]"
end

-- The registry validator's constraint messages (everit json-schema, as in
-- providers/lib/schema_validate.lua). Paths are JSON pointers: "#/Name",
-- "#/Config/Items/0/Key".

---verified: "#/SamplingRule/RuleName: expected maxLength: 32, actual: 33"
---(a CloudFormation event quoted in public repositories); minLength is the
---same validator's wording for the other bound (extrapolated).
function M.max_length(path, max, actual)
  return path .. ": expected maxLength: " .. max .. ", actual: " .. actual
end
function M.min_length(path, min, actual)
  return path .. ": expected minLength: " .. min .. ", actual: " .. actual
end

---everit's wording for minimum / maximum ("11 is not less or equal to 10"),
---which CloudFormation passes through (extrapolated from its other
---everit messages).
function M.minimum(path, value_text, min_text)
  return path .. ": " .. value_text .. " is not greater or equal to " .. min_text
end
function M.maximum(path, value_text, max_text)
  return path .. ": " .. value_text .. " is not less or equal to " .. max_text
end

---everit's wording for minItems / maxItems (extrapolated).
function M.min_items(path, min, found)
  return path .. ": expected minimum item count: " .. min .. ", found: " .. found
end
function M.max_items(path, max, found)
  return path .. ": expected maximum item count: " .. max .. ", found: " .. found
end

---verified: "#/Content: expected type: String, found: JSONObject" (a
---CREATE_FAILED event); used for values below the top level, whose type
---errors the legacy family has no words for.
function M.expected_type(path, expected, found)
  return path .. ": expected type: " .. expected .. ", found: " .. found
end

-- Tags (EC2 API wording; the built-in providers are mostly EC2) --------------

---verified: kubernetes-sigs/cluster-api-provider-aws#5120 ("Value (
---aws:cloudformation:stack-name ) for parameter key is invalid. Tag keys
---starting with 'aws:' are reserved for internal use").
function M.tag_reserved(key)
  return "Value ( " .. key .. " ) for parameter key is invalid. Tag keys starting with 'aws:' are reserved for internal use"
end

---verified for a value over 256: szuecs/kube-static-egress-controller#35
---("1 validation error detected: Value '...' at 'tags.1.member.value' failed
---to satisfy constraint: Member must have length less than or equal to
---256"); key (128) and the minimum length extrapolated.
function M.tag_too_long(index, field, value, max)
  return "1 validation error detected: Value '" .. value .. "' at 'tags." .. index .. ".member." .. field
      .. "' failed to satisfy constraint: Member must have length less than or equal to " .. max
end

function M.tag_too_short(index, field, value, min)
  return "1 validation error detected: Value '" .. value .. "' at 'tags." .. index .. ".member." .. field
      .. "' failed to satisfy constraint: Member must have length greater than or equal to " .. min
end

---verified: cloud-custodian/cloud-custodian#3792 (EC2: "Duplicate tag key
---'Name' specified.").
function M.tag_duplicate(key)
  return "Duplicate tag key '" .. key .. "' specified."
end

return M
