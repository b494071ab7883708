// The preprocessor of kernel code (preprocessor.hpp): #define and the expansion of macros in
// the token stream.
#include "core/code/preprocessor.hpp"

#include <algorithm>

namespace banklab::code {

TokenStream::TokenStream(std::vector<Token> tokens) : tokens_(std::move(tokens)) {
  expand_macro();
}

Token TokenStream::take() {
  Token t = peek();
  if (pos_ < tokens_.size() - 1) ++pos_;
  expand_macro();
  return t;
}

void TokenStream::define() {
  const Token hash = tokens_[pos_++];  // no expansion: a name may be defined again
  if (!is_name("define")) fail(hash.pos, "only #define is understood after '#'");
  ++pos_;
  if (peek().kind != Tok::name || peek().line_start) fail(peek().pos, "#define needs a name");
  const Token name = tokens_[pos_];
  ++pos_;  // the name itself is not expanded
  if (is("(") && peek().pos.offset == name.pos.offset + static_cast<int>(name.text.size())) {
    fail(peek().pos, "function-like macros are not supported: #define a constant");
  }
  std::vector<Token> body;
  while (!at_end() && !peek().line_start && !is(";") && !is("#") && !is_name("__shared__") &&
         !is_name("extern") && !is_name("constexpr") && !is_name("static")) {
    body.push_back(tokens_[pos_]);
    ++pos_;
  }
  if (is(";")) ++pos_;
  if (body.empty()) fail(name.pos, "#define " + name.text + " has no value");
  const auto old = std::ranges::find(macros_, name.text, &Macro::first);
  if (old != macros_.end()) {
    old->second = std::move(body);  // a redefinition replaces the body
  } else {
    if (macros_.size() == kMaxMacros) fail(name.pos, "more than 64 #defines");
    macros_.emplace_back(name.text, std::move(body));
  }
  expand_macro();
}

std::vector<std::string> TokenStream::macro_names() const {
  std::vector<std::string> names;
  for (const Macro& m : macros_) names.push_back(m.first);
  return names;
}

void TokenStream::expand_macro() {
  while (peek().kind == Tok::name) {
    const auto it = std::ranges::find(macros_, peek().text, &Macro::first);
    if (it == macros_.end()) return;
    const std::uint64_t bit = std::uint64_t{1} << (it - macros_.begin());
    if (peek().hidden & bit) return;  // inside its own expansion: a plain name
    if (++expansions_ > kMaxExpansions || tokens_.size() + it->second.size() > kMaxTokens) {
      fail(peek().pos, "#define " + peek().text + " expands to too much code");
    }
    const Token replaced = peek();
    std::vector<Token> body = it->second;
    for (Token& t : body) t.hidden |= replaced.hidden | bit;
    body.front().line_start = replaced.line_start;
    tokens_.erase(tokens_.begin() + static_cast<std::ptrdiff_t>(pos_));
    tokens_.insert(tokens_.begin() + static_cast<std::ptrdiff_t>(pos_), body.begin(), body.end());
  }
}

}  // namespace banklab::code
