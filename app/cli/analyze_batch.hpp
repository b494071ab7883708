#pragma once
// `banklab analyze --batch FILE|- [--summary]`: one pattern a line ("OP WIDTH o0,...,o31"), one
// JSON object a line out, in order. Blank lines and lines starting with '#' are skipped. A bad
// line gives {"ok":false,"diagnostics":[...]} with messages that start "line N: ", and the batch
// goes on; the exit status is then kExitBadInput, with a one-line summary on stderr.
#include <string_view>

namespace banklab::cli {

// What each good line's object holds: everything (the counts and the 32 lane records, ~3.7 KB)
// or the counts alone (--summary, ~300 bytes: append_json_counts()).
enum class BatchForm : bool { full, counts };

int run_analyze_batch(std::string_view source, BatchForm form);  // a path, or "-" for stdin

}  // namespace banklab::cli
