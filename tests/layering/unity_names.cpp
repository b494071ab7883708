// The names a unity build could mix up (issue 36). CMake's UNITY_BUILD compiles a target's
// sources eight to a translation unit, one after another: whatever a file declares at namespace
// scope (in an anonymous namespace too), every macro it defines and every using-directive or
// using-declaration it writes there stay in force for the files after it. Where two files of one
// target use the same spelling, the later one compiles against both, and an unqualified call can
// pick the other file's function with no error or warning: banklab_figures drew the Descriptor
// Lab's picture wrongly that way (docs/testing.md, "The two native trees' compile").
//
//   banklab_unity_names [--list] --target NAME DIR SOURCE... [--target NAME DIR SOURCE...]...
//     --list   also print every file-local name found (what the scan sees)
//
// For each target (its sources relative to DIR), every namespace-scope name each .cpp file
// declares that stays file-local (an anonymous namespace's, a static one, a const variable, a
// type, an alias, a using-declaration or -directive, a macro left defined) is listed, and any
// such name that another file of the target also declares at namespace scope (in the same
// namespace or one enclosing the other) is reported with both places: the same using-declaration,
// alias or macro written twice, or a using-declaration and what it names, is one thing and not
// reported. A using-directive (`using namespace detail;`) is not reported: what it makes visible
// to the files after it is the nominated namespace's, and where those names are declared in the
// target's own sources (detail::, code::) the rule above already meets them, a namespace
// enclosing another counting as the same; names declared only in headers are not checked.
// Exit status 0: none; 1: some (each printed); 2: a file could not be read.
//
// A lexical scan, not a compiler: comments, strings and preprocessor lines are set aside, braces
// are matched, and a declaration's name is the identifier before its parameter list, its
// initializer or its semicolon. It errs towards reporting: a name it takes for file-local is at
// worst renamed needlessly.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct Token {
  std::string text;
  int line = 0;
};

// A namespace-scope name one file declares.
struct Declared {
  std::string name;
  std::string scope;  // the enclosing named namespaces, "a::b" ("" for the global namespace)
  std::string what;   // "anonymous namespace", "static", "macro", ... or "" where not file-local
  std::string file;
  int line = 0;
  std::string text{};  // a using-declaration's, an alias's or a macro's whole text
  bool file_local() const { return !what.empty(); }
};

// ---------------------------------------------------------------------------------------------
// Reading a file: macros recorded, comments, literals and preprocessor lines set aside, the rest
// cut into identifiers and punctuation ("::" one token).

bool ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// A preprocessor line (its continuations joined): a #define's name is recorded, an #undef
// forgets it again (a macro undefined in its own file reaches no other).
void preprocessor_line(std::string_view directive, int line,
                       std::map<std::string, std::pair<int, std::string>>& macros) {
  std::size_t i = directive.find_first_not_of(" \t#");
  if (i == std::string_view::npos) return;
  std::size_t j = i;
  while (j < directive.size() && ident_char(directive[j])) ++j;
  const std::string_view keyword = directive.substr(i, j - i);
  if (keyword != "define" && keyword != "undef") return;
  i = directive.find_first_not_of(" \t", j);
  if (i == std::string_view::npos) return;
  j = i;
  while (j < directive.size() && ident_char(directive[j])) ++j;
  const std::string name(directive.substr(i, j - i));
  if (keyword == "define") {
    macros.emplace(name, std::pair{line, std::string(directive.substr(j))});
  } else {
    macros.erase(name);
  }
}

// The end of the literal that starts at `i` ('"' or '\''; R"delim(...)delim" where `raw`).
std::size_t literal_end(const std::string& s, std::size_t i, bool raw) {
  if (raw) {
    const std::size_t open = s.find('(', i);
    if (open == std::string::npos) return s.size();
    const std::string close = ")" + s.substr(i + 1, open - i - 1) + "\"";
    const std::size_t end = s.find(close, open);
    return end == std::string::npos ? s.size() : end + close.size();
  }
  const char quote = s[i];
  for (std::size_t j = i + 1; j < s.size(); ++j) {
    if (s[j] == '\\') {
      ++j;
    } else if (s[j] == quote || s[j] == '\n') {
      return j + 1;
    }
  }
  return s.size();
}

std::vector<Token> tokenize(const std::string& s,
                            std::map<std::string, std::pair<int, std::string>>& macros) {
  std::vector<Token> tokens;
  int line = 1;
  bool line_start = true;
  const auto count_lines = [&](std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < to && k < s.size(); ++k) line += s[k] == '\n' ? 1 : 0;
  };
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (c == '\n') {
      ++line, ++i, line_start = true;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (line_start && c == '#') {
      std::size_t end = i;
      while (end < s.size() && (s[end] != '\n' || s[end - 1] == '\\')) ++end;
      preprocessor_line(std::string_view(s).substr(i, end - i), line, macros);
      count_lines(i, end);
      i = end;
      continue;
    }
    line_start = false;
    if (s.compare(i, 2, "//") == 0) {
      i = s.find('\n', i);
      if (i == std::string::npos) break;
      continue;
    }
    if (s.compare(i, 2, "/*") == 0) {
      const std::size_t end = std::min(s.find("*/", i + 2), s.size() - 2) + 2;
      count_lines(i, end);
      i = end;
      continue;
    }
    if (c == '"' || c == '\'') {
      const std::size_t end = literal_end(s, i, false);
      count_lines(i, end);
      tokens.push_back({"\"\"", line});
      i = end;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {  // 1'000, 0x1F, 1.5e-3f
      std::size_t end = i + 1;
      while (end < s.size() && (ident_char(s[end]) || s[end] == '.' ||
                                (s[end] == '\'' && end + 1 < s.size() && ident_char(s[end + 1])))) {
        ++end;
      }
      tokens.push_back({"0", line});
      i = end;
      continue;
    }
    if (ident_start(c)) {
      std::size_t end = i;
      while (end < s.size() && ident_char(s[end])) ++end;
      std::string word = s.substr(i, end - i);
      // A raw string (R"(, u8R"(, LR"(...): the identifier is its prefix.
      if (end < s.size() && s[end] == '"' && !word.empty() && word.back() == 'R') {
        const std::size_t stop = literal_end(s, end, true);
        count_lines(i, stop);
        tokens.push_back({"\"\"", line});
        i = stop;
        continue;
      }
      tokens.push_back({std::move(word), line});
      i = end;
      continue;
    }
    if (s.compare(i, 2, "::") == 0) {
      tokens.push_back({"::", line});
      i += 2;
      continue;
    }
    tokens.push_back({std::string(1, c), line});
    ++i;
  }
  return tokens;
}

// ---------------------------------------------------------------------------------------------
// A declaration at namespace scope: its tokens up to its body, initializer or semicolon.

bool is_identifier(const std::string& t) {
  return !t.empty() && ident_start(t[0]);
}

// Keywords and the like that come before a declared name, never as it.
bool is_keyword(const std::string& t) {
  static const std::set<std::string> kWords = {
      "const",    "constexpr", "constinit", "consteval",    "static",   "inline",   "extern",
      "volatile", "unsigned",  "signed",    "thread_local", "mutable",  "auto",     "void",
      "int",      "char",      "bool",      "float",        "double",   "long",     "short",
      "typename", "template",  "noexcept",  "override",     "final",    "decltype", "requires",
      "struct",   "class",     "union",     "enum",         "operator", "explicit", "friend"};
  return kWords.contains(t);
}

// Whether d[k] is an initializer's '=' (not a part of operator==, operator<=, ...).
bool is_assignment(const std::vector<Token>& d, std::size_t k) {
  static const std::set<std::string> kOperatorParts = {"operator", "=", "!", "<", ">", "+", "-",
                                                       "*",        "/", "%", "&", "|", "^"};
  if (d[k].text != "=") return false;
  if (k > 0 && kOperatorParts.contains(d[k - 1].text)) return false;
  return k + 1 >= d.size() || d[k + 1].text != "=";
}

// Whether `d` holds an initializer's '=' outside parentheses and a template's parameter list.
bool has_initializer(const std::vector<Token>& d) {
  int depth = 0;
  std::size_t k = 0;
  if (!d.empty() && d[0].text == "template") {
    int angles = 0;
    for (k = 1; k < d.size(); ++k) {
      if (d[k].text == "<") ++angles;
      if (d[k].text == ">" && --angles == 0) break;
    }
  }
  for (; k < d.size(); ++k) {
    const std::string& x = d[k].text;
    if (x == "(" || x == "[" || x == "{") ++depth;
    if (x == ")" || x == "]" || x == "}") --depth;
    if (depth == 0 && is_assignment(d, k)) return true;
  }
  return false;
}

// The declarators' names of a variable declaration (`constexpr float kA = 1, kB = 2`): the
// identifier before each top-level `=`, `{`, `[`, `(` or `,`, or the last one.
std::vector<Token> declarator_names(const std::vector<Token>& d) {
  std::vector<Token> names;
  int depth = 0, angles = 0;
  bool in_initializer = false;
  const Token* last = nullptr;
  for (const Token& t : d) {
    const std::string& x = t.text;
    if (x == "(" || x == "[" || x == "{") {
      if (depth == 0 && !in_initializer && last) names.push_back(*last), in_initializer = true;
      ++depth;
    } else if (x == ")" || x == "]" || x == "}") {
      --depth;
    } else if (depth == 0 && !in_initializer && x == "<") {
      ++angles;
    } else if (depth == 0 && !in_initializer && x == ">") {
      --angles;
    } else if (depth == 0 && angles <= 0 && x == "=") {
      if (!in_initializer && last) names.push_back(*last);
      in_initializer = true;
    } else if (depth == 0 && angles <= 0 && x == ",") {
      if (!in_initializer && last) names.push_back(*last);
      in_initializer = false, last = nullptr;
    } else if (!in_initializer && is_identifier(x) && !is_keyword(x)) {
      last = &t;
    }
  }
  if (!in_initializer && last) names.push_back(*last);
  return names;
}

bool contains(const std::vector<Token>& d, std::string_view word) {
  for (const Token& t : d) {
    if (t.text == word) return true;
  }
  return false;
}

// The function's name: the identifier before its parameter list at `paren` ("operator<<" and the
// like whole); none where it is a qualified definition (A::f, ns::g) of a name declared elsewhere.
std::optional<Token> function_name(const std::vector<Token>& d, std::size_t paren) {
  for (std::size_t k = 0; k < paren; ++k) {
    if (d[k].text != "operator") continue;
    if (k > 0 && d[k - 1].text == "::") return std::nullopt;
    Token name = d[k];
    for (std::size_t m = k + 1; m < paren; ++m) name.text += d[m].text;
    return name;
  }
  if (paren == 0 || !is_identifier(d[paren - 1].text)) return std::nullopt;
  if (paren > 1 && d[paren - 2].text == "::") return std::nullopt;
  // TEST_CASE("...") { ... }: a macro's call (names in capitals), not a function of that name.
  const std::string& name = d[paren - 1].text;
  if (std::none_of(name.begin(), name.end(), [](char c) { return std::islower(c) != 0; })) {
    return std::nullopt;
  }
  return d[paren - 1];
}

// The names the declaration `d` introduces into `scope` (the tokens before its body, or its
// whole text up to the semicolon), with how each is file-local.
void declare(const std::vector<Token>& d, const std::string& scope, bool anonymous,
             const std::string& file, std::vector<Declared>& out) {
  std::size_t start = 0;
  if (!d.empty() && d[0].text == "template") {  // skip `template <...>`
    int angles = 0;
    for (start = 1; start < d.size(); ++start) {
      if (d[start].text == "<") ++angles;
      if (d[start].text == ">" && --angles == 0) break;
    }
    ++start;
  }
  if (start >= d.size()) return;
  const std::vector<Token> decl(d.begin() + static_cast<std::ptrdiff_t>(start), d.end());
  const std::string& first = decl[0].text;
  std::string text;
  for (const Token& t : decl) text += (text.empty() ? "" : " ") + t.text;
  const auto add = [&](const Token& t, std::string what) {
    if (what.empty() && anonymous) what = "anonymous namespace";
    out.push_back({t.text, scope, std::move(what), file, t.line, text});
  };
  if (first == "static_assert" ||
      (first == "extern" && decl.size() > 1 && decl[1].text == "template")) {
    return;
  }
  if (first == "using") {
    if (decl.size() > 2 && decl[1].text == "namespace") {
      return;  // see the note at the top
    } else if (decl.size() > 2 && decl[2].text == "=") {
      add(decl[1], "alias");
    } else if (is_identifier(decl.back().text)) {
      add(decl.back(), "using-declaration");
    }
    return;
  }
  if (first == "namespace" && decl.size() > 2 && decl[2].text == "=") {
    add(decl[1], "namespace alias");
    return;
  }
  for (const char* type : {"struct", "class", "union", "enum"}) {
    if (first != type) continue;
    std::size_t k = 1;
    if (k < decl.size() && (decl[k].text == "class" || decl[k].text == "struct")) ++k;
    if (k < decl.size() && is_identifier(decl[k].text)) add(decl[k], "type");
    return;
  }
  const bool is_static = contains(decl, "static");
  // A function: a '(' before any initializer (`T x = f(...)` is a variable).
  for (std::size_t k = 0; k < decl.size() && !is_assignment(decl, k) && decl[k].text != "{"; ++k) {
    if (decl[k].text != "(" || (k > 0 && decl[k - 1].text == "operator" && k + 1 < decl.size() &&
                                decl[k + 1].text == ")")) {
      continue;
    }
    if (const std::optional<Token> name = function_name(decl, k)) {
      add(*name, is_static ? "static" : "");
    }
    return;
  }
  const bool constant = (contains(decl, "const") || contains(decl, "constexpr")) &&
                        !contains(decl, "extern") && !contains(decl, "inline");
  for (const Token& name : declarator_names(decl)) {
    add(name, is_static ? "static" : constant ? "const" : "");
  }
}

// ---------------------------------------------------------------------------------------------
// Walking a file: namespaces entered and left, bodies skipped, declarations collected.

struct Scope {
  std::string name;  // "" for an anonymous namespace or extern "C"
  bool anonymous = false;
};

std::string scope_path(const std::vector<Scope>& scopes) {
  std::string path;
  for (const Scope& s : scopes) {
    if (s.name.empty()) continue;
    path += (path.empty() ? "" : "::") + s.name;
  }
  return path;
}

bool in_anonymous(const std::vector<Scope>& scopes) {
  for (const Scope& s : scopes) {
    if (s.anonymous) return true;
  }
  return false;
}

// The index after the brace that closes the one at `open`.
std::size_t skip_braces(const std::vector<Token>& t, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < t.size(); ++i) {
    if (t[i].text == "{") ++depth;
    if (t[i].text == "}" && --depth == 0) return i + 1;
  }
  return t.size();
}

// `struct Cell;`: a type named, declared (and given its linkage) where it is defined.
bool forward_declaration(const std::vector<Token>& d) {
  static const std::set<std::string> kKeys = {"struct", "class", "union", "enum"};
  return (d.size() == 2 && kKeys.contains(d[0].text)) ||
         (d.size() == 3 && d[0].text == "enum" && kKeys.contains(d[1].text));
}

// Whether the '{' that ends `d` opens a function's body (rather than a type's, an initializer's,
// a lambda's in an initializer, or a namespace's).
bool opens_function(const std::vector<Token>& d) {
  return !d.empty() && contains(d, ")") && !has_initializer(d) && d[0].text != "struct" &&
         d[0].text != "class" && d[0].text != "union" && d[0].text != "enum";
}

void walk(const std::vector<Token>& t, const std::string& file, std::vector<Declared>& out) {
  std::vector<Scope> scopes;
  std::vector<Token> d;
  int parens = 0;
  for (std::size_t i = 0; i < t.size();) {
    const std::string& x = t[i].text;
    if (x == "(" || x == "[") ++parens;
    if (x == ")" || x == "]") --parens;
    if (x == "}" && parens == 0) {  // a namespace closes
      if (!d.empty()) declare(d, scope_path(scopes), in_anonymous(scopes), file, out);
      d.clear();
      if (!scopes.empty()) scopes.pop_back();
      ++i;
      continue;
    }
    if (x == ";" && parens == 0) {
      if (!d.empty() && !forward_declaration(d)) {
        declare(d, scope_path(scopes), in_anonymous(scopes), file, out);
      }
      d.clear(), ++i;
      continue;
    }
    if (x != "{") {
      d.push_back(t[i++]);
      continue;
    }
    if (!d.empty() && d[0].text == "namespace") {  // namespace a::b {  or  namespace {
      std::string name;
      for (std::size_t k = 1; k < d.size(); ++k) name += d[k].text;
      scopes.push_back({name, name.empty()});
      d.clear(), ++i;
      continue;
    }
    if (d.size() == 2 && d[0].text == "extern" && d[1].text == "\"\"") {  // extern "C" {
      scopes.push_back({"", false});
      d.clear(), ++i;
      continue;
    }
    // A body or an initializer: the declaration is named from what came before it.
    const bool function = opens_function(d) && parens == 0;
    const bool initializer = parens > 0 || has_initializer(d);
    if (!initializer && !d.empty()) declare(d, scope_path(scopes), in_anonymous(scopes), file, out);
    const std::size_t after = skip_braces(t, i);
    if (initializer) {
      d.insert(d.end(), t.begin() + static_cast<std::ptrdiff_t>(i),
               t.begin() + static_cast<std::ptrdiff_t>(after));
    } else if (function) {
      d.clear();
    } else {
      d = {Token{"struct", t[i].line}};  // a type's trailing declarators up to ';' are not named
    }
    i = after;
    if (!initializer && !function && i < t.size() && t[i].text == ";") d.clear(), ++i;
  }
}

// ---------------------------------------------------------------------------------------------
// The report.

std::vector<Declared> declared_in(const std::string& path, const std::string& shown, bool& ok) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "banklab_unity_names: cannot read %s\n", path.c_str());
    ok = false;
    return {};
  }
  std::stringstream text;
  text << in.rdbuf();
  std::map<std::string, std::pair<int, std::string>> macros;
  const std::vector<Token> tokens = tokenize(text.str(), macros);
  std::vector<Declared> out;
  walk(tokens, shown, out);
  for (const auto& [name, definition] : macros) {
    out.push_back({name, "", "macro", shown, definition.first, definition.second});
  }
  return out;
}

// Whether a lookup in one scope can find a name of the other: the same namespace, or one
// enclosing the other (a macro reaches every scope).
bool scopes_meet(const Declared& a, const Declared& b) {
  if (a.what == "macro" || b.what == "macro") return true;
  const auto encloses = [](const std::string& outer, const std::string& inner) {
    return outer.empty() || inner == outer || inner.starts_with(outer + "::");
  };
  return encloses(a.scope, b.scope) || encloses(b.scope, a.scope);
}

std::string place(const Declared& d) {
  return d.file + ":" + std::to_string(d.line) + " (" +
         (d.file_local() ? d.what : std::string("external")) + ")";
}

// Whether two declarations of one spelling are one thing: the same using-declaration, alias or
// macro written in two files, or a using-declaration (`using detail::at`) and the declaration it
// names.
bool same_entity(const Declared& a, const Declared& b) {
  static const std::set<std::string> kRepeatable = {"using-declaration", "alias", "namespace alias",
                                                    "macro"};
  if (a.file_local() && b.file_local()) {
    return a.what == b.what && kRepeatable.contains(a.what) && a.text == b.text;
  }
  const Declared& used = a.what == "using-declaration" ? a : b;
  const Declared& named = a.what == "using-declaration" ? b : a;
  if (used.what != "using-declaration" || named.file_local()) return false;
  std::string qualified;  // "using detail :: at" -> "detail"
  for (const char c : std::string_view(used.text).substr(6))
    qualified += c == ' ' ? "" : std::string(1, c);
  const std::string qualifier = qualified.substr(0, qualified.rfind("::"));
  return named.scope == qualifier || named.scope.ends_with("::" + qualifier);
}

// The target's clashes: pairs of files declaring one spelling where lookup from one can reach
// the other, one of them file-local, and not the same thing.
int report(const std::string& target, const std::vector<Declared>& all) {
  std::map<std::string, std::vector<const Declared*>> by_name;
  for (const Declared& d : all) by_name[d.name].push_back(&d);
  int problems = 0;
  for (const auto& [name, list] : by_name) {
    std::set<std::string> reported;
    for (std::size_t i = 0; i < list.size(); ++i) {
      for (std::size_t j = i + 1; j < list.size(); ++j) {
        const Declared& a = *list[i];
        const Declared& b = *list[j];
        if (a.file == b.file || !(a.file_local() || b.file_local()) || !scopes_meet(a, b) ||
            same_entity(a, b) || !reported.insert(a.file + "|" + b.file).second) {
          continue;
        }
        std::printf("%s: '%s' in %s and %s\n", target.c_str(), name.c_str(), place(a).c_str(),
                    place(b).c_str());
        ++problems;
      }
    }
  }
  return problems;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  const bool list = !args.empty() && args[0] == "--list";
  if (list) args.erase(args.begin());
  if (args.empty() || args[0] != "--target") {
    std::fprintf(stderr, "usage: banklab_unity_names --target NAME DIR SOURCE... [--target ...]\n");
    return 2;
  }
  bool ok = true;
  int problems = 0, files = 0;
  for (std::size_t i = 0; i < args.size();) {
    if (args[i] != "--target" || i + 2 >= args.size()) {
      std::fprintf(stderr, "banklab_unity_names: expected --target NAME DIR, got '%s'\n",
                   args[i].c_str());
      return 2;
    }
    const std::string target = args[i + 1], dir = args[i + 2];
    std::vector<Declared> all;
    for (i += 3; i < args.size() && args[i] != "--target"; ++i) {
      const std::string& source = args[i];
      if (!source.ends_with(".cpp")) continue;
      const std::string path = source.starts_with("/") ? source : dir + "/" + source;
      const std::vector<Declared> names = declared_in(path, source, ok);
      all.insert(all.end(), names.begin(), names.end());
      ++files;
    }
    if (list) {
      for (const Declared& d : all) {
        if (d.file_local())
          std::printf("%s: %s '%s'\n", target.c_str(), place(d).c_str(), d.name.c_str());
      }
    }
    problems += report(target, all);
  }
  if (!ok) return 2;
  std::printf("banklab_unity_names: %d file(s), %d name(s) a unity batch could mix up\n", files,
              problems);
  return problems == 0 ? 0 : 1;
}
