// StackSet records in the XML shapes of the CloudFormation service model
// (botocore data/cloudformation/2010-05-15/service-2.json: StackSet,
// StackSetSummary, StackInstance, StackInstanceSummary, StackSetOperation,
// StackSetOperationSummary, StackSetOperationResultSummary; member names
// and order as the model has them).
#pragma once

#include "server/xml.h"
#include "stackset/stack_set.h"

namespace ms::server {

// The members of each shape (the caller opens and closes its element).
void WriteStackSet(XmlWriter& w, const StackSetRecord& s, const std::vector<std::string>& regions);
void WriteStackSetSummary(XmlWriter& w, const StackSetRecord& s);
void WriteStackInstance(XmlWriter& w, const StackInstanceRecord& i);
void WriteStackInstanceSummary(XmlWriter& w, const StackInstanceRecord& i);
void WriteStackSetOperation(XmlWriter& w, const StackSetRecord& set, const StackSetOperationRecord& op);
void WriteStackSetOperationSummary(XmlWriter& w, const StackSetOperationRecord& op);
void WriteOperationResult(XmlWriter& w, const OperationResult& r);

}  // namespace ms::server
