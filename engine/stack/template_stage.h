// GetTemplate's TemplateStage: which of a stack's (or a change set's)
// templates it answers. "Processed" (AWS's default) is the template after
// AWS::Include inserted its snippets, "Original" the one submitted; for a
// template no transform changed, both are the same text.
#pragma once

#include <string>
#include <string_view>

#include "base/status.h"
#include "records/stack.h"
#include "store/change_set_table.h"

namespace ms {

// `stage` empty: Processed. Anything else than the two names is AWS's
// ValidationError on 'templateStage'.
Status TemplateAtStage(const StackRecord& stack, std::string_view stage, std::string* body);
Status TemplateAtStage(const ChangeSetRecord& change_set, std::string_view stage, std::string* body);

}  // namespace ms
