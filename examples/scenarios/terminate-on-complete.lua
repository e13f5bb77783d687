-- Seed 000, test 36's situation: an instance is terminated behind
-- CloudFormation's back. When Instance2 reaches CREATE_COMPLETE, terminate it
-- out of band; the stack still completes (CloudFormation does not watch its
-- resources), and a later delete-stack or update has to cope with it.
--
--   moonstack create-stack --stack-name demo --template-file two-instances.yaml \
--     --scenario terminate-on-complete.lua
--   moonstack world show <Instance2's id>     -- State: shutting-down, then terminated

on({ logical_id = "Instance2", status = "CREATE_COMPLETE" }, function(event, aws)
  aws.ec2.TerminateInstances { InstanceIds = { event.PhysicalResourceId } }
  print("scenario: terminated " .. event.PhysicalResourceId)
end)
