// The preprocessor of kernel code (preprocessor.hpp): directives, then macro expansion by
// rescanning. The input is a stack (its top the next token); a macro's replacement is pushed
// back onto it, so that it is read again for the macros it uses, each token carrying the set
// of macros it came out of (which it may not expand again).
//
// [SECTION] Macros and their expansion
// [SECTION] #if expressions
// [SECTION] Directives
// [SECTION] The entry point
#include "core/code/preprocessor.hpp"

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <utility>

#include "core/code/integer.hpp"

namespace banklab::code {
namespace {

// What expansion may cost. `tokens` bounds the input and output at any time, `produced` every
// token expansion makes along the way (replacements and the arguments collected for them, at
// every level): the memory and the time of F(F(F(...))) or of a long chain of macros used many
// times, which grow with the square of the code, stop there. `nesting` bounds the arguments
// expanded inside one another (a level of recursion each).
struct Limits {
  int expansions;
  std::size_t tokens;
  std::size_t produced;
  std::size_t macros;
  int nesting;
};
// The Code window's code is one line or a few; a .cu file may expand its macros many times.
constexpr Limits kSnippetLimits{1000, 20000, 100000, 64, 64};
constexpr Limits kFileLimits{200000, 2000000, 400000, 4096, 256};
constexpr int kMaxMacroNesting = 1024;  // macros expanding inside one another

// [SECTION] Macros and their expansion

struct Macro {
  std::string name;
  bool function_like = false;
  std::vector<std::string> params;  // function-like; "__VA_ARGS__" last when variadic
  std::vector<Token> body;
};

class Preprocessor {
 public:
  Preprocessor(std::vector<Token> tokens, Dialect dialect)
      : dialect_(dialect), limits_(dialect == Dialect::file ? kFileLimits : kSnippetLimits) {
    end_ = tokens.back();
    tokens.pop_back();
    input_.assign(tokens.rbegin(), tokens.rend());
    if (dialect == Dialect::file) {
      for (const auto& [name, value] : {std::pair{"__CUDA_ARCH__", 900},
                                        {"__CUDACC__", 1},
                                        {"__NVCC__", 1},
                                        {"__cplusplus", 201703}}) {
        Token t;
        t.kind = Tok::number;
        t.number = value;
        t.text = std::to_string(value);
        t.number_type = value > 0x7FFFFFFF ? kLongLong : kInt;
        add_macro({name, false, {}, {t}});
      }
    }
  }

  Preprocessed run();

 private:
  bool empty() const { return input_.empty(); }
  const Token& top() const { return input_.back(); }
  Token pop() {
    Token t = std::move(input_.back());
    input_.pop_back();
    return t;
  }
  void push(const std::vector<Token>& tokens) {
    if (input_.size() + out_.size() + tokens.size() > limits_.tokens) fail_too_much();
    input_.insert(input_.end(), tokens.rbegin(), tokens.rend());
  }
  [[noreturn]] void fail_too_much() {
    fail(current_, "#define " + current_name_ + " expands to too much code");
  }
  Macro* find(std::string_view name) {
    const auto it = defined_.find(std::string(name));
    return it == defined_.end() ? nullptr : &macros_[it->second];
  }
  void add_macro(Macro m) {
    defined_[m.name] = macros_.size();
    macros_.push_back(std::move(m));
  }
  // A set is a chain: its newest macro and the set it extends. Sets are shared by the tokens
  // that hold them, and a new one costs one link whatever its size (a copy of the whole set per
  // expansion made a chain of 4,000 macros, used 40 times, take gigabytes). A chain is the
  // macros expanding inside one another, at most kMaxMacroNesting: a walk is that long at most.
  bool hides(int set, std::size_t macro) const {
    for (; set >= 0; set = sets_[static_cast<std::size_t>(set)].rest)
      if (sets_[static_cast<std::size_t>(set)].macro == macro) return true;
    return false;
  }
  // The set `set` with `macro` added.
  int with(int set, std::size_t macro) {
    const int depth = set < 0 ? 1 : sets_[static_cast<std::size_t>(set)].depth + 1;
    if (depth > kMaxMacroNesting) {
      fail(current_, "#define " + current_name_ +
                         ": macros expand inside one another deeper than " +
                         std::to_string(kMaxMacroNesting) + " levels");
    }
    sets_.push_back({macro, set, depth});
    return static_cast<int>(sets_.size()) - 1;
  }
  // Tokens an expansion made: past the budget, an error.
  void produce(std::size_t tokens) {
    produced_ += tokens;
    if (produced_ > limits_.produced) {
      fail(current_, "#define " + current_name_ + ": the macros expand to more than " +
                         std::to_string(limits_.produced) + " tokens in all");
    }
  }

  // The token is a macro's name that may be expanded here: its replacement goes onto the input.
  bool expand(const Token& name);
  std::vector<std::vector<Token>> arguments(const Token& name, const Macro& m);
  std::vector<Token> expand_fully(std::vector<Token> tokens);
  std::vector<Token> substitute(const Macro& m, const std::vector<std::vector<Token>>& args,
                                const Token& use);

  void directive(const Token& hash);
  std::vector<Token> rest_of_line();
  void define(const Token& hash, std::vector<Token> line);
  void snippet_define(const Token& hash);
  void conditional(const std::string& which, const Token& hash, std::vector<Token> line);
  bool evaluate_condition(const Token& hash, std::vector<Token> line);
  void skip_branch(const Token& hash);

  Dialect dialect_;
  Limits limits_;
  std::vector<Token> input_;  // reversed: the next token last
  std::vector<Token> out_;
  Token end_;
  // Every macro defined, in order; an #undef'd one keeps its place (hidden sets hold indices).
  std::vector<Macro> macros_;
  std::unordered_map<std::string, std::size_t> defined_;  // the macros defined now, by name
  struct HiddenSet {
    std::size_t macro;
    int rest;  // the set this one extends, -1 none
    int depth;
  };
  std::vector<HiddenSet> sets_;
  int expansions_ = 0;
  std::size_t produced_ = 0;
  int nesting_ = 0;  // arguments being expanded inside one another
  Pos current_;      // the macro use being expanded, for the limits' message
  std::string current_name_;
  struct Branch {
    bool taken;      // some branch of this #if was taken
    bool active;     // the current branch is being read
    bool seen_else;  // #else came
  };
  std::vector<Branch> branches_;
};

bool Preprocessor::expand(const Token& name) {
  Macro* m = find(name.text);
  if (m == nullptr) return false;
  const auto index = static_cast<std::size_t>(m - macros_.data());
  if (hides(name.hidden, index)) return false;  // inside its own expansion: a plain name
  if (m->function_like && (empty() || !(top().kind == Tok::punct && top().text == "("))) {
    return false;  // a function-like macro's name without '(' is a plain name
  }
  current_ = name.pos;
  current_name_ = name.text;
  if (++expansions_ > limits_.expansions) fail_too_much();
  std::vector<Token> replacement;
  if (m->function_like) {
    const Macro copy = *m;  // arguments() may not define macros, but keep the body stable
    replacement = substitute(copy, arguments(name, copy), name);
  } else {
    replacement = m->body;
  }
  produce(replacement.size());
  const int hidden = with(name.hidden, index);
  for (Token& t : replacement) {
    t.hidden = hidden;
    if (dialect_ == Dialect::file) t.pos = name.pos;  // nvcc's line table: the use's line
    t.line_start = false;
  }
  if (!replacement.empty()) replacement.front().line_start = name.line_start;
  push(replacement);
  return true;
}

// NAME( a, (b, c), d ): the arguments, split at the commas outside parentheses.
std::vector<std::vector<Token>> Preprocessor::arguments(const Token& name, const Macro& m) {
  pop();  // '('
  std::vector<std::vector<Token>> args(1);
  int depth = 0;
  while (true) {
    if (empty()) fail(name.pos, "the arguments of " + name.text + "(...) are never closed");
    Token t = pop();
    if (t.kind == Tok::punct && (t.text == "(" || t.text == "[" || t.text == "{")) ++depth;
    if (t.kind == Tok::punct && (t.text == ")" || t.text == "]" || t.text == "}")) {
      if (depth == 0) break;
      --depth;
    }
    const bool variadic_rest =
        !m.params.empty() && m.params.back() == "__VA_ARGS__" && args.size() == m.params.size();
    if (depth == 0 && t.kind == Tok::punct && t.text == "," && !variadic_rest) {
      args.emplace_back();
      continue;
    }
    args.back().push_back(std::move(t));
    produce(1);
  }
  if (m.params.empty() && args.size() == 1 && args[0].empty()) args.clear();
  const bool variadic = !m.params.empty() && m.params.back() == "__VA_ARGS__";
  if (variadic && args.size() + 1 == m.params.size()) args.emplace_back();
  if (args.size() != m.params.size()) {
    fail(name.pos, name.text + "(...) takes " + std::to_string(m.params.size()) +
                       " arguments, not " + std::to_string(args.size()));
  }
  return args;
}

// An argument as a parameter's use receives it: macro-expanded on its own first, as in C.
std::vector<Token> Preprocessor::expand_fully(std::vector<Token> tokens) {
  if (nesting_ == limits_.nesting) {
    fail(current_, "#define " + current_name_ + ": macro arguments nest deeper than " +
                       std::to_string(limits_.nesting) + " levels");
  }
  ++nesting_;
  std::vector<Token> saved_input = std::move(input_);
  std::vector<Token> saved_out = std::move(out_);
  input_.assign(tokens.rbegin(), tokens.rend());
  out_.clear();
  while (!empty()) {
    Token t = pop();
    if (t.kind == Tok::name && expand(t)) continue;
    out_.push_back(std::move(t));
  }
  std::vector<Token> result = std::move(out_);
  input_ = std::move(saved_input);
  out_ = std::move(saved_out);
  --nesting_;
  return result;
}

std::vector<Token> Preprocessor::substitute(const Macro& m,
                                            const std::vector<std::vector<Token>>& args,
                                            const Token& use) {
  const auto param = [&](const Token& t) -> int {
    if (t.kind != Tok::name) return -1;
    const auto it = std::find(m.params.begin(), m.params.end(), t.text);
    return it == m.params.end() ? -1 : static_cast<int>(it - m.params.begin());
  };
  std::vector<Token> out;
  const std::vector<Token>& body = m.body;
  for (std::size_t i = 0; i < body.size(); ++i) {
    const Token& t = body[i];
    const bool pasted_next =
        i + 1 < body.size() && body[i + 1].kind == Tok::punct && body[i + 1].text == "##";
    const bool pasted_prev = i > 0 && body[i - 1].kind == Tok::punct && body[i - 1].text == "##";
    if (t.kind == Tok::punct && t.text == "#" && i + 1 < body.size() && param(body[i + 1]) >= 0) {
      Token s;  // #param: the argument's spelling as a string
      s.kind = Tok::string;
      s.pos = use.pos;
      for (const Token& a : args[static_cast<std::size_t>(param(body[i + 1]))])
        s.text += (s.text.empty() ? "" : " ") + a.text;
      out.push_back(std::move(s));
      ++i;
      continue;
    }
    if (t.kind == Tok::punct && t.text == "##") {
      // a ## b: the two spellings joined and read again as one token.
      if (out.empty() || i + 1 >= body.size()) continue;
      std::vector<Token> right;
      if (const int p = param(body[i + 1]); p >= 0) {
        right = args[static_cast<std::size_t>(p)];
      } else {
        right = {body[i + 1]};
      }
      ++i;
      if (right.empty()) continue;
      const std::string joined = out.back().text + right.front().text;
      std::vector<Token> again = tokenize(joined, use.pos.source);
      again.pop_back();  // its end
      if (again.size() != 1)
        fail(use.pos, "## in " + m.name + " makes '" + joined + "', not one token");
      again.front().pos = out.back().pos;
      out.back() = again.front();
      out.insert(out.end(), right.begin() + 1, right.end());
      continue;
    }
    if (const int p = param(t); p >= 0) {
      const std::vector<Token>& arg = args[static_cast<std::size_t>(p)];
      // Next to ## the argument is used as written; elsewhere expanded first.
      const std::vector<Token> value = pasted_next || pasted_prev ? arg : expand_fully(arg);
      out.insert(out.end(), value.begin(), value.end());
      continue;
    }
    out.push_back(t);
  }
  return out;
}

// [SECTION] #if expressions

// The integer expression of an #if, its macros expanded and defined() resolved: C's operators
// on 64-bit values, names that are no macro being 0.
class ConditionParser {
 public:
  ConditionParser(const std::vector<Token>& tokens, Pos pos) : t_(tokens), pos_(pos) {}

  std::int64_t parse() {
    const std::int64_t v = ternary();
    if (i_ < t_.size()) fail(t_[i_].pos, "unexpected '" + t_[i_].text + "' in #if");
    return v;
  }

 private:
  bool is(std::string_view p) const {
    return i_ < t_.size() && t_[i_].kind == Tok::punct && t_[i_].text == p;
  }
  // Each '(', unary operator and ?: is a level of recursion: bounded, as the parser's are.
  static constexpr int kMaxDepth = 200;
  struct Level {
    explicit Level(ConditionParser& p) : depth(++p.depth_) {
      if (depth > kMaxDepth) {
        fail(p.i_ < p.t_.size() ? p.t_[p.i_].pos : p.pos_,
             "#if: the condition nests deeper than " + std::to_string(kMaxDepth) + " levels");
      }
    }
    ~Level() { --depth; }
    int& depth;
  };

  std::int64_t ternary() {
    const std::int64_t c = binary(1);
    if (!is("?")) return c;
    const Level level(*this);
    ++i_;
    const std::int64_t a = ternary();
    if (!is(":")) fail(pos_, "expected ':' in the #if's ?:");
    ++i_;
    const std::int64_t b = ternary();
    return c != 0 ? a : b;
  }
  std::int64_t binary(int min_prec) {
    std::int64_t left = unary();
    while (i_ < t_.size() && t_[i_].kind == Tok::punct) {
      const std::string op = t_[i_].text;
      const int prec = binary_precedence(op);
      if (prec == 0 || prec < min_prec) break;
      const Pos at = t_[i_].pos;
      ++i_;
      const std::int64_t right = binary(prec + 1);
      if (op == "&&") {
        left = left != 0 && right != 0;
      } else if (op == "||") {
        left = left != 0 || right != 0;
      } else {
        const Expected<Int> r = apply(*int_op(op), {left, kLongLong}, {right, kLongLong});
        if (!r) fail(at, "#if: " + r.error());
        left = r->bits;
      }
    }
    return left;
  }
  std::int64_t unary() {
    const Level level(*this);
    if (i_ >= t_.size()) fail(pos_, "#if needs a value here");
    const Token& t = t_[i_++];
    if (t.kind == Tok::punct && t.text == "(") {
      const std::int64_t v = ternary();
      if (!is(")")) fail(t.pos, "expected ')' in #if");
      ++i_;
      return v;
    }
    if (t.kind == Tok::punct &&
        (t.text == "!" || t.text == "-" || t.text == "+" || t.text == "~")) {
      const std::int64_t v = unary();
      if (t.text == "!") return v == 0;
      if (t.text == "~") return ~v;
      if (t.text == "-") {
        const Expected<Int> r = negate({v, kLongLong});
        if (!r) fail(t.pos, "#if: " + r.error());
        return r->bits;
      }
      return v;
    }
    if (t.kind == Tok::number && !t.floating) return t.number;
    if (t.kind == Tok::name) return 0;  // a name that is no macro is 0 in #if
    fail(t.pos, "#if cannot use '" + t.text + "'");
  }

  const std::vector<Token>& t_;
  Pos pos_;
  std::size_t i_ = 0;
  int depth_ = 0;
};

// [SECTION] Directives

std::vector<Token> Preprocessor::rest_of_line() {
  std::vector<Token> line;
  while (!empty() && !top().line_start) line.push_back(pop());
  return line;
}

void Preprocessor::define(const Token& hash, std::vector<Token> line) {
  if (line.empty() || line.front().kind != Tok::name) fail(hash.pos, "#define needs a name");
  Macro m;
  m.name = line.front().text;
  std::size_t i = 1;
  // NAME( right after the name, with no blank: a function-like macro.
  if (line.size() > 1 && line[1].kind == Tok::punct && line[1].text == "(" &&
      line[1].pos.offset == line[0].pos.offset + static_cast<int>(m.name.size())) {
    m.function_like = true;
    for (i = 2; i < line.size() && !(line[i].kind == Tok::punct && line[i].text == ")"); ++i) {
      if (line[i].kind == Tok::name) m.params.push_back(line[i].text);
      if (line[i].kind == Tok::punct && line[i].text == "...") m.params.push_back("__VA_ARGS__");
    }
    if (i >= line.size()) fail(line[1].pos, "the parameters of #define " + m.name + " never close");
    ++i;
  }
  m.body.assign(line.begin() + static_cast<std::ptrdiff_t>(i), line.end());
  if (Macro* old = find(m.name)) {
    *old = std::move(m);
    return;
  }
  if (macros_.size() >= limits_.macros)
    fail(hash.pos, "more than " + std::to_string(limits_.macros) + " #defines");
  add_macro(std::move(m));
}

// The Code window's #define: object-like, its body up to the line's end, a ';' or a keyword
// that starts a declaration.
void Preprocessor::snippet_define(const Token& hash) {
  if (empty() || top().kind != Tok::name || top().text != "define" || top().line_start) {
    fail(hash.pos, "only #define is understood after '#'");
  }
  pop();
  if (empty() || top().kind != Tok::name || top().line_start) {
    fail(empty() ? end_.pos : top().pos, "#define needs a name");
  }
  const Token name = pop();
  if (!empty() && top().kind == Tok::punct && top().text == "(" &&
      top().pos.offset == name.pos.offset + static_cast<int>(name.text.size())) {
    fail(top().pos, "function-like macros are not supported: #define a constant");
  }
  Macro m{name.text, false, {}, {}};
  const auto ends = [&](const Token& t) {
    return t.line_start || (t.kind == Tok::punct && (t.text == ";" || t.text == "#")) ||
           (t.kind == Tok::name && (t.text == "__shared__" || t.text == "extern" ||
                                    t.text == "constexpr" || t.text == "static"));
  };
  while (!empty() && !ends(top())) m.body.push_back(pop());
  if (!empty() && top().kind == Tok::punct && top().text == ";") pop();
  if (m.body.empty()) fail(name.pos, "#define " + name.text + " has no value");
  if (Macro* old = find(m.name)) {
    old->body = std::move(m.body);  // a redefinition replaces the body
    return;
  }
  if (macros_.size() == limits_.macros) fail(name.pos, "more than 64 #defines");
  add_macro(std::move(m));
}

bool Preprocessor::evaluate_condition(const Token& hash, std::vector<Token> line) {
  // defined NAME and defined(NAME) first, before the macros are expanded.
  std::vector<Token> resolved;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i].kind == Tok::name && line[i].text == "defined") {
      std::size_t j = i + 1;
      const bool paren = j < line.size() && line[j].text == "(";
      if (paren) ++j;
      if (j >= line.size() || line[j].kind != Tok::name) fail(line[i].pos, "defined needs a name");
      Token v = line[i];
      v.kind = Tok::number;
      v.number = find(line[j].text) != nullptr ? 1 : 0;
      resolved.push_back(v);
      i = j + (paren ? 1 : 0);
      continue;
    }
    resolved.push_back(line[i]);
  }
  if (resolved.empty()) fail(hash.pos, "#if needs a condition");
  return ConditionParser(expand_fully(std::move(resolved)), hash.pos).parse() != 0;
}

void Preprocessor::conditional(const std::string& which, const Token& hash,
                               std::vector<Token> line) {
  if (which == "ifdef" || which == "ifndef" || which == "if") {
    const bool outer = branches_.empty() || branches_.back().active;
    bool value = false;
    if (outer) {
      if (which == "if") {
        value = evaluate_condition(hash, std::move(line));
      } else {
        if (line.empty() || line.front().kind != Tok::name)
          fail(hash.pos, "#" + which + " needs a name");
        value = (find(line.front().text) != nullptr) == (which == "ifdef");
      }
    }
    branches_.push_back({!outer || value, outer && value, false});
  } else {
    if (branches_.empty()) fail(hash.pos, "#" + which + " without #if");
    Branch& b = branches_.back();
    const bool outer = branches_.size() < 2 || branches_[branches_.size() - 2].active;
    if (which == "endif") {
      branches_.pop_back();
    } else if (which == "else") {
      if (b.seen_else) fail(hash.pos, "a second #else");
      b.seen_else = true;
      b.active = outer && !b.taken;
      b.taken = true;
    } else {  // elif
      if (b.seen_else) fail(hash.pos, "#elif after #else");
      b.active = outer && !b.taken && evaluate_condition(hash, std::move(line));
      b.taken = b.taken || b.active;
    }
  }
  if (!branches_.empty() && !branches_.back().active) skip_branch(hash);
}

// Skips the tokens of a branch not taken, up to the #elif/#else/#endif that ends it.
void Preprocessor::skip_branch(const Token& hash) {
  int depth = 0;
  while (!empty()) {
    const Token t = pop();
    if (!(t.kind == Tok::punct && t.text == "#" && t.line_start && t.hidden < 0)) continue;
    if (empty() || top().kind != Tok::name || top().line_start) continue;
    const std::string which = top().text;
    if (which == "if" || which == "ifdef" || which == "ifndef") {
      ++depth;
    } else if (depth > 0 && which == "endif") {
      --depth;
    } else if (depth == 0 && (which == "elif" || which == "else" || which == "endif")) {
      pop();
      conditional(which, t, rest_of_line());
      return;
    }
  }
  fail(hash.pos, "this #if is never closed with #endif");
}

void Preprocessor::directive(const Token& hash) {
  if (dialect_ == Dialect::snippet) return snippet_define(hash);
  if (empty() || top().line_start) return;  // a lone '#'
  const Token word = pop();
  std::vector<Token> line = rest_of_line();
  const std::string& w = word.text;
  if (w == "define") return define(hash, std::move(line));
  if (w == "undef") {
    if (!line.empty()) defined_.erase(line.front().text);
    return;
  }
  if (w == "if" || w == "ifdef" || w == "ifndef" || w == "elif" || w == "else" || w == "endif")
    return conditional(w, hash, std::move(line));
  if (w == "pragma" && !line.empty() && line.front().text == "unroll") {
    Token p = hash;
    p.kind = Tok::pragma;
    p.text = "unroll";
    p.number = line.size() > 1 && line[1].kind == Tok::number ? line[1].number : 0;
    out_.push_back(std::move(p));
  }
  // #include, #line, #error (in a branch taken), other pragmas: nothing the scan needs.
}

// [SECTION] The entry point

Preprocessed Preprocessor::run() {
  while (!empty()) {
    Token t = pop();
    // A directive: a '#' of the source itself, at the start of a line (anywhere in the
    // Code window's code, where "N = 4; #define M 8" is one line).
    if (t.kind == Tok::punct && t.text == "#" && t.hidden < 0 &&
        (t.line_start || dialect_ == Dialect::snippet)) {
      directive(t);
      continue;
    }
    if (t.kind == Tok::name && expand(t)) continue;
    out_.push_back(std::move(t));
  }
  if (!branches_.empty()) fail(end_.pos, "an #if is never closed with #endif");
  out_.push_back(end_);
  Preprocessed p;
  p.tokens = std::move(out_);
  for (const Macro& m : macros_) {
    if (!m.name.starts_with("__") && find(m.name) == &m)  // defined now, not predefined
      p.macros.push_back(m.name);
  }
  return p;
}

}  // namespace

Preprocessed preprocess(std::vector<Token> tokens, Dialect dialect) {
  return Preprocessor(std::move(tokens), dialect).run();
}

}  // namespace banklab::code
