#pragma once
// Files of one `key = value` a line: a saved scenario (app/frontend/scenario_file.hpp) and
// banklab-gui's settings. Every line is TOML, read by toml++, so a value is a string in quotes,
// a whole number (hexadecimal too), a number, true or false, or a list of whole numbers on the
// line:
//
//   # BankLab scenario: bf16 tile[32][33], column 3, ld 2 B per lane     <- skipped, as are blanks
//   dtype = "bf16"                                                      <- text "bf16"
//   pad = 1                                                             <- "1"
//   lanes = 0xffffffff                                                  <- "0xffffffff"
//   offsets = [0, 128, -1]                                              <- "0,128,-1"
//
// Before these files were TOML, values had no quotes (`dtype = bf16`, `folder = /home/me`): a
// line toml++ refuses whose value is unquoted text is read as that text, so every file an
// older BankLab wrote still opens. What a key means, and whether it may repeat, is the
// caller's: this file only splits lines.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace banklab {

// What a value was written as: a string in quotes, a number (or true, false), a list of numbers.
enum class ValueKind : std::uint8_t { text, number, list };

struct KeyValue {
  int line = 0;  // from 1
  std::string key = {};
  // The value as text, as a flag would give it: a string's contents, a number's digits
  // (hexadecimal kept as "0x..."), a list's numbers joined by ','.
  std::string value = {};
  ValueKind kind = ValueKind::text;

  friend bool operator==(const KeyValue&, const KeyValue&) = default;
};

struct KeyValueError {
  int line = 0;
  std::string message;  // "expected 'key = value', got 'what'"
};

struct KeyValueLines {
  std::vector<KeyValue> values;       // in file order
  std::vector<KeyValueError> errors;  // the lines that are not `key = value`, in file order
};

// Reads every line; a UTF-8 byte-order mark at the start is skipped.
KeyValueLines read_key_value_lines(std::string_view text);

// One line of such a file, with its newline: `key = "text"` (quoted and escaped as TOML),
// `key = 42`, or `key = [0, 128, -1]` for the list "0,128,-1".
std::string key_value_line(std::string_view key, std::string_view value, ValueKind kind);

// Whether key_value_line() reads back as this key and value (false for text that is not UTF-8,
// or a key TOML cannot spell): what a writer checks before it keeps a value.
bool reads_back(std::string_view key, std::string_view value, ValueKind kind);

}  // namespace banklab
