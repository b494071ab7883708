#pragma once
// The preprocessor of kernel code: the tokens with every directive applied and every macro
// expanded, as the C preprocessor does it (a macro's name inside its own expansion stays a
// name; a redefinition replaces the body), before the parser reads them.
//
// Two dialects:
//   snippet  the Code window's code and --decl/--expr: #define only, object-like, its body
//            ending at the end of the line, a ';' or a declaration keyword (so that a one-line
//            --decl can hold "#define N 32; __shared__ float t[N];"); expanded tokens keep the
//            body's place, so an error inside a macro points into the #define
//   file     a .cu file: #define (object- and function-like, # and ##, __VA_ARGS__), #undef,
//            #if/#ifdef/#ifndef/#elif/#else/#endif with defined(), #pragma unroll (kept as a
//            token for the loop after it); #include and the other directives are skipped.
//            __CUDA_ARCH__ is 900 (sm_90), __CUDACC__ and __NVCC__ are defined. Expanded
//            tokens take the place of the macro's use, as nvcc's line table does.
// Expansion is bounded (kLimits): too many expansions or tokens is an error, never a hang.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/code/tokenizer.hpp"

namespace banklab::code {

enum class Dialect : std::uint8_t { snippet, file };

struct Preprocessed {
  std::vector<Token> tokens;        // ending with one Tok::end
  std::vector<std::string> macros;  // the names #defined (and not #undef'd) at the end
};

// The tokens of every source, ending with one Tok::end.
Preprocessed preprocess(std::vector<Token> tokens, Dialect dialect);

// The parser's view of the preprocessed tokens: a cursor that can look ahead and go back.
class TokenCursor {
 public:
  explicit TokenCursor(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

  const Token& peek(std::size_t ahead = 0) const {
    return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
  }
  bool at_end() const { return peek().kind == Tok::end; }
  bool is(std::string_view punct, std::size_t ahead = 0) const {
    return peek(ahead).kind == Tok::punct && peek(ahead).text == punct;
  }
  bool is_name(std::string_view name, std::size_t ahead = 0) const {
    return peek(ahead).kind == Tok::name && peek(ahead).text == name;
  }
  Token take() {
    Token t = peek();
    if (pos_ < tokens_.size() - 1) ++pos_;
    return t;
  }
  // Where the cursor is, to come back to after a trial parse (a cast that is not one).
  std::size_t position() const { return pos_; }
  void rewind(std::size_t position) { pos_ = position; }

 private:
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
};

}  // namespace banklab::code
