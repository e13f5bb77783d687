-- Contract-test fixture of AWS::CDK::Metadata: CDK v2's Analytics string,
-- changed in place.
return {
  create = { Analytics = "v2:deflate64:H4sIAAAAAAAA/zPSMzQ0MlAwUDA2MDA0NDE3NdA1MbGwsDQ0MDGyMDE0MDI2MzCxNDE3NdAzsjA3NTQ0MTA2MjQ0AQAAAP//" },
  updates = {
    { Analytics = "v2:deflate64:H4sIAAAAAAAA/wMAAAAAAAAAAAA=" },  -- none
  },
  verify = function(aws, id, props, attributes)
    assert(id:match("^%x%x%x%x%x%x%x%x%-%x%x%x%x%-%x%x%x%x%-%x%x%x%x%-%x%x%x%x%x%x%x%x%x%x%x%x$"), "id is " .. id)
  end,
}
