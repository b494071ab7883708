#pragma once
// banklab analyze --decl "..." --expr "...": the code form of analyze (issue 16). The code is
// parsed and evaluated per lane by core (kernel_code.hpp); this file reads the flags, prints
// what analyze prints for the resulting access, and adds the expression evaluated per lane.
#include <span>

#include "app/frontend/code_flags.hpp"

namespace banklab::cli {

int run_analyze_code(const frontend::Args& args);

}  // namespace banklab::cli
