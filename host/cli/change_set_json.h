// Change set records in the JSON shapes `aws cloudformation ... --output
// json` prints: the service model's member names and order (botocore
// data/cloudformation/2010-05-15/service-2.json), as botocore parses them.
#pragma once

#include "cli/io.h"
#include "store/change_set_table.h"

namespace ms::cli {

Json ResourceChangeJson(const ChangeSetResourceChange& c);  // a member of Changes: {Type, ResourceChange}
Json DescribeChangeSetJson(const ChangeSetRecord& cs);      // DescribeChangeSet's output
Json ChangeSetSummaryJson(const ChangeSetRecord& cs);       // ListChangeSets' Summaries

}  // namespace ms::cli
