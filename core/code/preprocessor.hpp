#pragma once
// The preprocessor of kernel code: the token stream the parser reads, with #define'd names
// replaced by their bodies as the parser reaches them, as the C preprocessor would (a macro's
// name inside its own expansion stays a name; redefinition replaces the body). Expansion is
// bounded: at most kMaxMacros macros, kMaxExpansions expansions and kMaxTokens tokens.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/code/tokenizer.hpp"

namespace banklab::code {

class TokenStream {
 public:
  static constexpr int kMaxExpansions = 1000;       // macro expansions in one code
  static constexpr std::size_t kMaxTokens = 20000;  // tokens once the macros are expanded
  static constexpr std::size_t kMaxMacros = 64;     // #defines (each has a bit in Token::hidden)

  // The tokens of every source, ending with one Tok::end; a macro at the start is expanded.
  explicit TokenStream(std::vector<Token> tokens);

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
  // The current token; the stream moves on and expands a macro it lands on.
  Token take();
  // Where the stream is, to come back to after a trial parse (a cast that is not one).
  std::size_t position() const { return pos_; }
  void rewind(std::size_t position) { pos_ = position; }

  // At '#': reads "#define NAME body"; the body runs to the end of the line, a ';' or a
  // declaration keyword.
  void define();
  std::vector<std::string> macro_names() const;

 private:
  using Macro = std::pair<std::string, std::vector<Token>>;
  // Replaces a macro name at the current position by its body.
  void expand_macro();

  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  std::vector<Macro> macros_;
  int expansions_ = 0;
};

}  // namespace banklab::code
