#pragma once
// `banklab analyze --batch FILE|-`: one pattern a line ("OP WIDTH o0,...,o31"), one JSON object
// a line out, in order. Blank lines and lines starting with '#' are skipped. A bad line gives
// {"ok":false,"diagnostics":[...]} with messages that start "line N: ", and the batch goes on;
// the exit status is then kExitBadInput, with a one-line summary on stderr.
#include <string_view>

namespace banklab::cli {

int run_analyze_batch(std::string_view source);  // a path, or "-" for standard input

}  // namespace banklab::cli
