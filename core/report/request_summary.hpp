#pragma once
// The request in numbers, one line, as the CLI's summary (banklab analyze, explain) and the
// app's Arithmetic window print it.
#include <string>

#include "core/model/analysis.hpp"

namespace banklab {

// "32 active lanes request 128 B: 32 distinct words in 1 bank, 1 phase"; each noun singular for
// one ("1 active lane requests 4 B: 1 distinct word in 1 bank, 1 phase"), and the partner lane
// of packed loads ("(loads packed with partner lane l^1)").
std::string request_summary(const Analysis& a);

}  // namespace banklab
