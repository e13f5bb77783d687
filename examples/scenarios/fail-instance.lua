-- A resource that fails to create: Instance2's create call fails with EC2's
-- capacity error, so the stack rolls back (ROLLBACK_COMPLETE), or stops in
-- CREATE_FAILED with --disable-rollback. Instance2's hook is never called.
--
--   moonstack create-stack --stack-name demo --template-file two-instances.yaml \
--     --scenario fail-instance.lua
--
-- The message: EC2's InsufficientInstanceCapacity text (as quoted in many
-- public bug reports, e.g. openshift/installer issue 7088) in the AWS SDK's
-- "(Service: …; Status Code: …; Error Code: …; Request ID: …)" wrapping.

fail({ logical_id = "Instance2", action = "create" }, {
  message = "We currently do not have sufficient t3.micro capacity in the Availability Zone you requested "
    .. "(us-east-1a). Our system will be working on provisioning additional capacity. You can currently get "
    .. "t3.micro capacity by not specifying an Availability Zone in your request or choosing us-east-1b, "
    .. "us-east-1c. (Service: AmazonEC2; Status Code: 500; Error Code: InsufficientInstanceCapacity; "
    .. "Request ID: 0f2b4c6e-8a1d-4e3f-9b7a-5c6d7e8f9a0b)",
})
