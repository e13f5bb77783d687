// TemplateCache: parsed templates by their text. One update parses the same
// stack template several times over — update-stack's check, the planner's
// "deployed" side, the executor after it — and a 10,000-resource template
// takes tens of milliseconds to parse. Templates are immutable once loaded,
// so they are shared (shared_ptr<const Template>) across threads.
//
// Only templates loaded without parameter lookups are cached (those with
// one may expand differently per parameters: AWS::LanguageExtensions).
#pragma once

#include <memory>
#include <string_view>

#include "base/status.h"
#include "template/template.h"

namespace ms {

// The parsed template of `text`, from the cache or loaded (then cached).
// Thread-safe. Holds the last few templates (LRU).
Status CachedTemplate(std::string_view text, std::shared_ptr<const Template>* out);
// Puts an already loaded template of `text` in the cache.
void RememberTemplate(std::string_view text, std::shared_ptr<const Template> tmpl);
// Forgets every cached template (benchmarks that time parsing).
void ClearTemplateCache();

}  // namespace ms
