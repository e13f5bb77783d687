// The aws CLI's `--output json|text|table` renderers, byte for byte: a
// response is printed exactly as `aws cloudformation <op> --output <fmt>`
// (awscli 1.x: awscli/formatter.py, text.py, table.py) prints the same
// response, with no --query.
//
// Shared rules of the three formats (awscli/formatter.py):
// - a top-level "ResponseMetadata" key is dropped; a response that is not an
//   object, list or string prints nothing (the aws CLI fails on it);
// - json: 4-space indent, non-ASCII written as is; an empty object prints
//   nothing (as for delete-stack), anything else, [] included, prints;
// - text: tab-separated lines, see text.py; {} and [] print nothing;
// - table: boxes as in table.py; {}, [] and "" print nothing;
// - scalars in text and table are written as Python's str() writes them:
//   true -> True, null -> None, 1.0 -> 1.0, 1e16 -> 1e+16.
#pragma once

#include <string>
#include <string_view>

#include "cli/io.h"

namespace ms::cli {

enum class OutputFormat { kJson, kText, kTable };

// "json", "text" or "table" (the aws CLI's choices, case-sensitive); false for
// anything else.
bool ParseOutputFormat(std::string_view name, OutputFormat* format);

// What the table renderer depends on besides the response.
struct RenderOptions {
  // The terminal's width in columns: a table wider than this is redrawn with
  // every one-row section turned vertical. The aws CLI asks the terminal of
  // stdout (TIOCGWINSZ) and uses 80 when that fails (a pipe, a file).
  int terminal_width = 80;
  // The aws CLI's `--color auto` colours tables when stdout is a terminal:
  // cell values bright blue, the nested tables' side bars dim yellow, and (as
  // colorama's autoreset does) a reset sequence after every write.
  bool color = false;
  // stdout is a terminal. With colour, colorama then also writes a reset
  // sequence when the aws CLI exits, after the table (or in its place).
  bool terminal = false;
};

// The options the aws CLI would use for this process's stdout with
// `--color auto`: its terminal width (80 if it is not a terminal), and colour
// when it is a terminal. (`--color on` / `off`: set `color` after.)
RenderOptions StdoutRenderOptions();

// The text the aws CLI prints for `response` (including the final newline;
// empty when it prints nothing). operation_title is the operation's API name,
// the title of the table's outer box: "DescribeStacks" for
// `aws cloudformation describe-stacks`. Not a terminal, no colour: width 80.
std::string RenderOutput(const Json& response, OutputFormat format, const std::string& operation_title);
std::string RenderOutput(const Json& response, OutputFormat format, const std::string& operation_title,
                         const RenderOptions& options);

// RenderOutput with StdoutRenderOptions(), written to stdout.
void PrintOutput(const Json& response, OutputFormat format, const std::string& operation_title);

// `j` as Python's json.dump(j, indent=4, ensure_ascii=False) writes it, plus
// a newline; unlike RenderOutput, an empty object prints "{}". (PrintJson.)
std::string RenderJsonDocument(const Json& j);

}  // namespace ms::cli
