#pragma once
// The parser of the Code window's code (the grammar is in kernel_code.hpp): declarations and
// one access, into the syntax tree (syntax.hpp) of one function whose body holds the
// declarations in order; the access and its guard are Program::access, which the machine
// (machine.hpp) evaluates for each lane. A whole .cu file has its own parser
// (source_parser.hpp).
#include <span>
#include <string_view>

#include "core/code/kernel_code.hpp"
#include "core/code/syntax.hpp"

namespace banklab::code {

// The whole code: throws Failure for the first thing it cannot read.
Program parse_program(std::span<const CodeSource> sources);
// One expression and nothing after it (evaluate_integer, --let values).
Program parse_expression(std::string_view text, int* root);

}  // namespace banklab::code
