// libFuzzer target: any bytes through parse + validate + evaluate must give a
// Status, never a crash, a hang or a leak.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "eval/validate.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  ms::Template t;
  ms::TemplateSummary summary;
  (void)ms::ValidateTemplate(text, &t, &summary);
  return 0;
}
