-- sim.ssm_regex: the SSM sim's AllowedPattern matcher is the SDK's
-- moonstack.regex (the subset of Java's and ECMAScript's regular expressions
-- both dialects share; see there).
return require("moonstack.regex")
