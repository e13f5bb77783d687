// CloudFormation registry schemas in the provider tooling:
//   provider new TYPE --from-schema FILE [--dir DIR]
//       a provider and its contract fixture from a registry schema
//       (lua-sdk/moonstack/scaffold_schema.lua)
//   provider describe TYPE --format schema|markdown
//       a provider's declaration as a registry schema or as Markdown
//       (lua-sdk/moonstack/registry_schema.lua)
#pragma once

#include <string>
#include <vector>

#include "template/value.h"

namespace ms::cli {

// Writes the scaffold `files` ({provider_path, fixture_path, provider,
// fixture}, paths relative to `dir`) without overwriting anything; prints
// what it created. Exit status: 0, or 1 with the reason on stderr.
int WriteProviderFiles(const Value& files, const std::string& dir);

int RunNewFromSchema(const std::string& type, const std::string& schema_file, const std::string& dir);

// `format`: "schema" (JSON, registry shape) or "markdown".
int RunDescribeFormat(const std::vector<std::string>& dirs, const std::string& type, const std::string& format);

}  // namespace ms::cli
