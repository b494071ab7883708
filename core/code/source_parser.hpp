#pragma once
// The parser of a whole .cu file, for `banklab scan`: the file's constants, enums, structs
// (their names, and their data members for the machine to lay out), shared arrays, kernels and
// __device__ functions (bodies parsed statement by
// statement into the syntax tree, syntax.hpp), and, in host functions, the launches
// kernel<<<grid, block, bytes>>>(args) with the constants and dim3s they use.
//
// A file is C++, and BankLab reads the part of it that shapes shared-memory traffic: what it
// cannot read inside a kernel (a lambda, a switch, a construct it does not know) becomes one
// statement "not read", with the reason, which the scan lists when it touches shared memory
// and which makes the variables it writes (=, +=, ++, &) unknown afterwards; host code is only
// searched for launches and their constants. Only a file it cannot read at its top level is an
// error.
#include <string_view>

#include "core/code/syntax.hpp"

namespace banklab::code {

// The file as source 0: throws Failure for what it cannot read at its top level.
Program parse_source(std::string_view text);

}  // namespace banklab::code
