#include "template/template_cache.h"

#include <list>
#include <mutex>
#include <string>
#include <utility>

namespace ms {
namespace {

// Few entries: the templates of the stacks being updated right now.
constexpr size_t kCapacity = 8;

struct Entry {
  std::string text;
  std::shared_ptr<const Template> tmpl;
};

std::mutex mu;
std::list<Entry> entries;  // most recently used first; guarded by mu

std::shared_ptr<const Template> Find(std::string_view text) {
  std::lock_guard<std::mutex> lock(mu);
  for (auto it = entries.begin(); it != entries.end(); ++it) {
    if (it->text.size() == text.size() && it->text == text) {
      entries.splice(entries.begin(), entries, it);
      return entries.front().tmpl;
    }
  }
  return nullptr;
}

}  // namespace

void RememberTemplate(std::string_view text, std::shared_ptr<const Template> tmpl) {
  std::lock_guard<std::mutex> lock(mu);
  for (auto it = entries.begin(); it != entries.end(); ++it) {
    if (it->text == text) {
      entries.erase(it);
      break;
    }
  }
  entries.push_front(Entry{std::string(text), std::move(tmpl)});
  if (entries.size() > kCapacity) entries.pop_back();
}

void ClearTemplateCache() {
  std::lock_guard<std::mutex> lock(mu);
  entries.clear();
}

Status CachedTemplate(std::string_view text, std::shared_ptr<const Template>* out) {
  if (std::shared_ptr<const Template> hit = Find(text)) {
    *out = std::move(hit);
    return Status::OK();
  }
  auto t = std::make_shared<Template>();
  MS_RETURN_IF_ERROR(LoadTemplate(text, t.get()));
  *out = t;
  RememberTemplate(text, std::move(t));
  return Status::OK();
}

}  // namespace ms
