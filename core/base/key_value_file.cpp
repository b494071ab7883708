#include "core/base/key_value_file.hpp"

#include <charconv>
#include <cstdlib>
#include <optional>

#include "core/base/format.hpp"
#include "core/base/toml.hpp"

namespace banklab {
namespace {

// A TOML value as the text a flag would give: "bf16", "1", "0xffffffff", "1.5", "0,128,-1";
// nullopt for what no key of these files holds (a date, a table, a list of anything but whole
// numbers).
std::optional<std::string> value_text(const toml::node& node) {
  if (const auto* s = node.as_string()) return s->get();
  if (const auto* i = node.as_integer()) {
    if (!!(i->flags() & toml::value_flags::format_as_hexadecimal) && i->get() >= 0) {
      char digits[16];
      const auto end = std::to_chars(digits, digits + sizeof digits, i->get(), 16).ptr;
      return "0x" + std::string(digits, end);
    }
    return std::to_string(i->get());
  }
  if (const auto* f = node.as_floating_point()) {
    // The shortest of 15 or 17 significant digits that reads back as the same number (printf,
    // not to_chars: the browser edition's libc++ has no to_chars for floating point).
    std::string text = format("%.15g", f->get());
    if (std::strtod(text.c_str(), nullptr) != f->get()) text = format("%.17g", f->get());
    // 1.0 stays "1.0": a whole-number key refuses it, as it refused the unquoted text.
    if (text.find_first_of(".eni") == std::string::npos) text += ".0";
    return text;
  }
  if (const auto* b = node.as_boolean()) return b->get() ? "true" : "false";
  if (const auto* a = node.as_array()) {
    std::string text;
    for (const toml::node& item : *a) {
      const auto* i = item.as_integer();
      if (i == nullptr) return std::nullopt;
      if (!text.empty()) text += ',';
      text += std::to_string(i->get());
    }
    return text;
  }
  return std::nullopt;
}

// One line as TOML: exactly one key whose value value_text() reads, or nullopt.
std::optional<KeyValue> toml_line(std::string_view line) {
  toml::table table;
  try {
    table = toml::parse(line);
  } catch (const toml::parse_error&) {
    return std::nullopt;
  }
  if (table.size() != 1) return std::nullopt;
  for (auto&& [key, node] : table) {
    std::optional<std::string> text = value_text(node);
    if (!text) return std::nullopt;
    const ValueKind kind = node.is_string()  ? ValueKind::text
                           : node.is_array() ? ValueKind::list
                                             : ValueKind::number;
    return KeyValue{.key = std::string(key.str()), .value = std::move(*text), .kind = kind};
  }
  return std::nullopt;
}

}  // namespace

KeyValueLines read_key_value_lines(std::string_view text) {
  KeyValueLines out;
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  for (int number = 1; !text.empty(); ++number) {
    const std::size_t end = text.find('\n');
    const std::string_view line = trim(text.substr(0, end));
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    if (line.empty() || line.starts_with('#')) continue;
    if (std::optional<KeyValue> value = toml_line(line)) {
      value->line = number;
      out.values.push_back(std::move(*value));
      continue;
    }
    // The older form: the text after '=', unquoted.
    const std::size_t equals = line.find('=');
    if (equals == std::string_view::npos || trim(line.substr(0, equals)).empty()) {
      out.errors.push_back({number, "expected 'key = value', got " + quote(line)});
      continue;
    }
    out.values.push_back({.line = number,
                          .key = std::string(trim(line.substr(0, equals))),
                          .value = std::string(trim(line.substr(equals + 1))),
                          .kind = ValueKind::text});
  }
  return out;
}

std::string key_value_line(std::string_view key, std::string_view value, ValueKind kind) {
  std::string line(key);
  line += " = ";
  if (kind == ValueKind::number) return line.append(value) += '\n';
  if (kind == ValueKind::list) {
    line += '[';
    for (const char c : value) line += c == ',' ? std::string_view(", ") : std::string_view(&c, 1);
    return line += "]\n";
  }
  line += '"';
  for (const char c : value) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      line += '\\';
      line += c;
    } else if (byte < 0x20 || byte == 0x7F) {
      append_format(line, "\\u%04X", byte);  // TOML's escape for a control character
    } else {
      line += c;
    }
  }
  return line += "\"\n";
}

bool reads_back(std::string_view key, std::string_view value, ValueKind kind) {
  const KeyValueLines back = read_key_value_lines(key_value_line(key, value, kind));
  return back.errors.empty() && back.values.size() == 1 && back.values[0].key == key &&
         back.values[0].value == value;
}

}  // namespace banklab
