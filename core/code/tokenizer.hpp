#pragma once
// The first stage of reading kernel code: the text of each source cut into tokens (numbers,
// names, punctuation, string literals), comments and blanks dropped, each token knowing where
// it stands. Errors in any stage are thrown as Failure and turned into a CodeError at the public
// functions (kernel_code.hpp); nothing escapes them.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/code/integer.hpp"

namespace banklab::code {

struct Pos {
  int source = 0;
  int offset = 0;  // byte offset in the source's text
};

inline constexpr Pos kNowhere{-1, 0};  // an error about the code as a whole, with no caret

struct Failure {
  Pos pos;
  std::string message;
};
[[noreturn]] void fail(Pos pos, std::string message);

// pragma: "#pragma unroll [N]" in a .cu file, kept for the loop after it (number: N, or 0
// for a plain "#pragma unroll").
enum class Tok : std::uint8_t { end, number, name, punct, string, pragma };

struct Token {
  Tok kind = Tok::end;
  std::string text;
  std::int64_t number = 0;
  IntType number_type = kInt;  // a number's C++ type, from its value and suffix
  bool floating = false;       // a floating-point literal: no integer value
  Pos pos;
  bool line_start = false;  // the first token of its line (ends a #define)
  // The macros this token came out of (a set of the preprocessor's, -1: none, the token is the
  // source's own): as in C, a macro's name inside its own expansion is not expanded again.
  int hidden = -1;
};

// The tokens of one source, ending with one Tok::end token. Names may be dotted
// ("threadIdx.x", "ldmatrix.sync.aligned.m8n8.x4.shared.b16"): a dot between two name
// characters joins them.
std::vector<Token> tokenize(std::string_view text, int source);

}  // namespace banklab::code
