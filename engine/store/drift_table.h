// Persistence of drift detection (schema migration 10): one row per stack
// drift detection (DescribeStackDriftDetectionStatus), one per resource with
// its drift as last detected (DescribeStackResourceDrifts, the describe
// calls' DriftInformation). A detection and its resources' drifts are
// written in one transaction.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "records/drift.h"
#include "store/database.h"

namespace ms {

// Saves the detection (if its id is not empty) and the resources' drifts,
// replacing each resource's previous one, in one transaction.
Status SaveDrift(Database* db, const StackDriftDetection* detection, const std::vector<ResourceDrift>& resources);
Status LoadDriftDetection(Database* db, const std::string& id, StackDriftDetection* out, bool* found);
// The stack's latest detection; *found false when it never had one.
Status LatestDriftDetection(Database* db, const std::string& stack_id, StackDriftDetection* out, bool* found);
// The stack's resources' drifts as last detected, in the order first saved.
Status LoadResourceDrifts(Database* db, const std::string& stack_id, std::vector<ResourceDrift>* out);

}  // namespace ms
