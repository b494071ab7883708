#pragma once
// The version of this build: the project's version and the commit it was configured from
// (read with git at configure time; "unknown" outside a git checkout).
#include <string>
#include <string_view>

namespace banklab {

std::string_view version();  // "0.1.0"
std::string_view commit();   // "4847813abcde", or "unknown"

// What `banklab --version` and `banklab-gui --version` print: the program, version and commit,
// and the data folder in use (or why there is none), e.g.
//   banklab 0.1.0 (commit 4847813abcde)
//   data: /usr/share/banklab
std::string version_text(std::string_view program);

}  // namespace banklab
