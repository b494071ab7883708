#include "core/base/json_writer.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/base/format.hpp"

namespace banklab {
namespace {

// The length of the well-formed UTF-8 sequence starting at text[i] (2, 3 or 4 bytes; RFC 3629:
// no overlong forms, no surrogates, nothing past U+10FFFF), or 0 when none starts there.
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto at = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = at(i);
  std::size_t n = 0;
  unsigned char low = 0x80, high = 0xBF;  // the range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    n = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    n = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    n = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (i + n > text.size() || at(i + 1) < low || at(i + 1) > high) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if ((at(i + k) & 0xC0) != 0x80) return 0;
  return n;
}

// A finite float as std::to_chars(first, last, number) writes it: the fewest significant digits
// that read back as the same float, in fixed or scientific notation, whichever is shorter
// (fixed on a tie), a fixed whole number with all its digits. Written out because libc++ 14 (the
// browser build's) has no to_chars for floating point; printf's %.*e rounds correctly, so the
// first precision that reads back is the shortest, and tests/core/test_json.cpp checks the result
// against to_chars here.
void append_shortest(std::string& out, float number) {
  const double value = number;
  char scientific[32];
  for (int digits = 1;; ++digits) {  // 9 significant digits always read back
    std::snprintf(scientific, sizeof scientific, "%.*e", digits - 1, value);
    if (digits == 9 || std::strtof(scientific, nullptr) == number) break;
  }
  // "-d.ddde-05": the sign, the digits without their point, the power of ten of the first.
  std::string_view text = scientific;
  const bool negative = text.front() == '-';
  if (negative) text.remove_prefix(1);
  const std::size_t e_at = text.find('e');
  std::string digits(text.substr(0, e_at));
  if (digits.size() > 1) digits.erase(1, 1);
  const int exponent = std::atoi(scientific + (negative ? 1 : 0) + e_at + 1);
  const int count = static_cast<int>(digits.size());

  std::string sci = digits.substr(0, 1);
  if (count > 1) sci += "." + digits.substr(1);
  append_format(sci, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
  std::string fixed;
  if (exponent < 0) {
    fixed = "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
  } else if (count <= exponent + 1) {
    append_format(fixed, "%.0f", std::fabs(value));
  } else {
    const auto point = static_cast<std::size_t>(exponent + 1);
    fixed = digits.substr(0, point) + "." + digits.substr(point);
  }
  if (negative) out += '-';
  out += fixed.size() <= sci.size() ? fixed : sci;
}

}  // namespace

void JsonWriter::raw(double number, int decimals) {
  if (std::isfinite(number)) {
    append_format(out_, "%.*f", decimals, number);
  } else {
    out_ += "null";
  }
}

void JsonWriter::raw(float number) {
  if (!std::isfinite(number)) {
    out_ += "null";
    return;
  }
  append_shortest(out_, number);
}

void JsonWriter::raw(std::string_view text) {
  out_ += '"';
  for (std::size_t i = 0; i < text.size();) {
    const char ch = text[i];
    if (static_cast<unsigned char>(ch) >= 0x80) {
      // JSON text is UTF-8, and messages quote user input (a batch line's bad op, say), which
      // may not be: copy valid sequences, replace each invalid byte with U+FFFD.
      const std::size_t n = utf8_length(text, i);
      if (n == 0) {
        out_ += "\\ufffd";
        ++i;
      } else {
        out_.append(text, i, n);
        i += n;
      }
      continue;
    }
    switch (ch) {
      case '"':
        out_ += "\\\"";
        break;
      case '\\':
        out_ += "\\\\";
        break;
      case '\n':
        out_ += "\\n";
        break;
      case '\t':
        out_ += "\\t";
        break;
      case '\r':
        out_ += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20) {
          static constexpr char kHex[] = "0123456789abcdef";
          out_ += "\\u00";
          out_ += kHex[(ch >> 4) & 0xF];
          out_ += kHex[ch & 0xF];
        } else {
          out_ += ch;
        }
    }
    ++i;
  }
  out_ += '"';
}

}  // namespace banklab
