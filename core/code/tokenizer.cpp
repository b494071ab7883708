// The tokenizer of kernel code (tokenizer.hpp): C++ integer literals, names (dotted ones
// joined), punctuation, string literals for asm statements; comments and blanks skipped.
#include "core/code/tokenizer.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <utility>

namespace banklab::code {

void fail(Pos pos, std::string message) {
  throw Failure{pos, std::move(message)};
}

namespace {

// "'c'". (Not "'" + std::string(1, c): GCC 12 warns falsely on "literal" + std::string, bug
// 105329.)
std::string quoted(char c) {
  std::string q(3, '\'');
  q[1] = c;
  return q;
}

bool name_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// A floating-point literal (1.5f, 2e-3, .5, 1.): a token with no integer value, which only an
// expression that needs one refuses. Returns the length read.
std::size_t read_floating(std::string_view s, Token* out) {
  std::size_t i = 0;
  while (i < s.size() &&
         (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.' || s[i] == '\'')) {
    ++i;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  }
  while (i < s.size() && (s[i] == 'f' || s[i] == 'F' || s[i] == 'l' || s[i] == 'L')) ++i;
  out->floating = true;
  return i;
}

// A character literal, 'a' or '\n', as the char it is. Returns the length read.
std::size_t read_character(std::string_view s, Pos pos, Token* out) {
  std::size_t i = 1;
  std::int64_t value = 0;
  if (i < s.size() && s[i] == '\\' && i + 1 < s.size()) {
    switch (s[i + 1]) {
      case 'n':
        value = '\n';
        break;
      case 't':
        value = '\t';
        break;
      case 'r':
        value = '\r';
        break;
      case '0':
        value = 0;
        break;
      default:
        value = s[i + 1];  // \\, \', \" and the rest stand for themselves
    }
    i += 2;
  } else if (i < s.size()) {
    value = static_cast<unsigned char>(s[i]);
    ++i;
  }
  if (i >= s.size() || s[i] != '\'') fail(pos, "this character literal is never closed with '");
  out->number = static_cast<std::int8_t>(value);
  out->number_type = {8, true};
  return i + 1;
}

// A C++ integer literal: 42, 0x2A, 0b101, 052, with u/l suffixes, into the token's number and
// type; or a floating one (read_floating). Returns the length read.
std::size_t read_number(std::string_view s, Pos pos, Token* out) {
  int base = 10;
  std::size_t i = 0;
  if (s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    i = 2;
  } else if (s.size() > 1 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
    base = 2;
    i = 2;
  } else if (s[0] == '0') {
    base = 8;
  }
  const std::size_t digits_begin = i;
  std::uint64_t value = 0;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '\'') continue;  // digit separator
    int d = -1;
    if (std::isdigit(static_cast<unsigned char>(c)))
      d = c - '0';
    else if (base == 16 && std::isxdigit(static_cast<unsigned char>(c)))
      d = std::tolower(static_cast<unsigned char>(c)) - 'a' + 10;
    if (d < 0) break;
    if (d >= base)
      fail(pos, "digit '" + std::string(1, c) + "' is not allowed in a base-" +
                    std::to_string(base) + " number");
    if (value > (static_cast<std::uint64_t>(INT64_MAX) - static_cast<std::uint64_t>(d)) /
                    static_cast<std::uint64_t>(base)) {
      fail(pos, "the number " + std::string(s.substr(0, std::min<std::size_t>(i + 1, 30))) +
                    "... does not fit in 64 bits (the largest is 9223372036854775807)");
    }
    value = value * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(d);
  }
  if (i == digits_begin && base != 8) fail(pos, "a number needs digits after its 0x or 0b");
  if (i < s.size() && (s[i] == '.' || s[i] == 'e' || s[i] == 'E') && base != 16) {
    return read_floating(s, out);
  }
  bool has_u = false;
  bool has_l = false;
  for (; i < s.size() && (s[i] == 'u' || s[i] == 'U' || s[i] == 'l' || s[i] == 'L'); ++i) {
    (s[i] == 'u' || s[i] == 'U' ? has_u : has_l) = true;
  }
  if (i < s.size() && name_char(s[i])) {
    fail(pos, quoted(s[i]) + " cannot follow a number");
  }
  out->number = static_cast<std::int64_t>(value);
  out->number_type = literal_type(out->number, base == 10, has_u, has_l);
  return i;
}

constexpr std::string_view kPuncts[] = {
    "...", "<<=", ">>=", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "++", "--",
    "+=",  "-=",  "*=",  "/=", "%=", "&=", "|=", "^=", "->", "::", "##", "+",  "-",
    "*",   "/",   "%",   "^",  "&",  "|",  "~",  "!",  "?",  ":",  "(",  ")",  "[",
    "]",   "{",   "}",   "<",  ">",  "=",  ",",  ";",  "#",  ".",
};

void skip_blank(std::string_view s, std::size_t& i, bool& line_start, Pos pos) {
  while (i < s.size()) {
    if (s[i] == '\n') {
      line_start = true;
      ++i;
    } else if (s[i] == '\\' &&
               (s.substr(i + 1).starts_with('\n') || s.substr(i + 1).starts_with("\r\n"))) {
      i += s[i + 1] == '\n' ? 2 : 3;  // a line continued: the same logical line
    } else if (std::isspace(static_cast<unsigned char>(s[i]))) {
      ++i;
    } else if (s.substr(i).starts_with("//")) {
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (s.substr(i).starts_with("/*")) {
      const std::size_t close = s.find("*/", i + 2);
      if (close == std::string_view::npos)
        fail({pos.source, static_cast<int>(i)}, "this comment is never closed with */");
      line_start = line_start || s.substr(i, close - i).find('\n') != std::string_view::npos;
      i = close + 2;
    } else {
      break;
    }
  }
}

}  // namespace

std::vector<Token> tokenize(std::string_view s, int source) {
  std::vector<Token> out;
  std::size_t i = 0;
  bool line_start = true;
  while (true) {
    skip_blank(s, i, line_start, {source, 0});
    Token t;
    t.pos = {source, static_cast<int>(i)};
    t.line_start = line_start;
    line_start = false;
    if (i >= s.size()) break;
    const bool dot_digit =
        s[i] == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1]));
    if (std::isdigit(static_cast<unsigned char>(s[i])) || dot_digit) {
      t.kind = Tok::number;
      const std::size_t n =
          dot_digit ? read_floating(s.substr(i), &t) : read_number(s.substr(i), t.pos, &t);
      t.text = s.substr(i, n);
      i += n;
    } else if (s[i] == '\'') {
      t.kind = Tok::number;
      const std::size_t n = read_character(s.substr(i), t.pos, &t);
      t.text = s.substr(i, n);
      i += n;
    } else if (s[i] == '"') {
      // A string literal, for asm statements: its text without the quotes, escapes resolved.
      std::size_t j = i + 1;
      t.kind = Tok::string;
      while (j < s.size() && s[j] != '"' && s[j] != '\n') {
        if (s[j] == '\\' && j + 1 < s.size()) {
          ++j;
          t.text += s[j] == 'n' ? '\n' : s[j] == 't' ? '\t' : s[j];
          ++j;
          continue;
        }
        t.text += s[j++];
      }
      if (j >= s.size() || s[j] != '"') fail(t.pos, "this string is never closed with \"");
      i = j + 1;
    } else if (name_start(s[i])) {
      std::size_t j = i;
      while (j < s.size() && (name_char(s[j]) ||
                              (s[j] == '.' && j + 1 < s.size() && name_start(s[j + 1]) && j > i)))
        ++j;
      t.kind = Tok::name;
      t.text = s.substr(i, j - i);
      i = j;
    } else {
      // The first character first: most punctuators differ there, and this runs for every
      // operator (it was a third of the kernel-code fuzz target's time, issue 36).
      const auto it = std::find_if(std::begin(kPuncts), std::end(kPuncts), [&](std::string_view p) {
        return p.front() == s[i] && s.compare(i, p.size(), p) == 0;
      });
      if (it == std::end(kPuncts)) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        fail(t.pos, std::isprint(c)
                        ? quoted(s[i]) + " is not part of C++ syntax"
                        : "a byte that is not printable text (code " + std::to_string(c) + ")");
      }
      t.kind = Tok::punct;
      t.text = *it;
      i += it->size();
    }
    out.push_back(std::move(t));
  }
  Token end;
  end.pos = {source, static_cast<int>(s.size())};
  end.line_start = true;
  out.push_back(end);
  return out;
}

}  // namespace banklab::code
