// The scalar encodings the AWS protocols share: base64 (blobs), timestamps
// (ISO 8601 in XML and what the sim stores, epoch seconds in JSON, RFC 822
// in headers), URL percent-decoding.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ms::server {

std::string Base64Encode(std::string_view bytes);
// nullopt when `text` is not base64.
std::optional<std::string> Base64Decode(std::string_view text);

// Seconds since the epoch of an ISO 8601 UTC time ("2024-05-01T12:00:00.000Z"),
// of epoch seconds as text ("1714564800" or "1714564800.5"), or of an RFC 822
// date; nullopt for anything else.
std::optional<double> ParseTimestamp(std::string_view text);
std::string IsoTimestamp(double epoch_seconds);     // 2024-05-01T12:00:00.000Z
std::string HttpDateTimestamp(double epoch_seconds);  // Wed, 01 May 2024 12:00:00 GMT
// A timestamp in `format` ("iso8601", "unixTimestamp", "rfc822"), from the
// sim's text (ISO) or a number; the text itself when it is neither.
std::string FormatTimestamp(std::string_view text, const std::string& format);

// %XX decoded; '+' a space only when `plus_is_space` (forms, not paths).
std::string PercentDecode(std::string_view s, bool plus_is_space);

}  // namespace ms::server
