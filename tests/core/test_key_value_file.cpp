// Files of one `key = value` a line (core/base/key_value_file.hpp): each line TOML, read by
// toml++; a value without quotes, as BankLab wrote these files before they were TOML, read as
// its text; a line that is neither reported with its number.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/base/key_value_file.hpp"

namespace banklab {
namespace {

KeyValue one(const std::string& line) {
  const KeyValueLines read = read_key_value_lines(line);
  REQUIRE(read.errors.empty());
  REQUIRE(read.values.size() == 1);
  return read.values[0];
}

TEST_CASE("Each TOML value reads as the text a flag would give") {
  struct Case {
    const char* line;
    const char* value;
    ValueKind kind;
  };
  const Case cases[] = {
      {"dtype = \"bf16\"", "bf16", ValueKind::text},
      {"pad = 1", "1", ValueKind::number},
      {"index = -2", "-2", ValueKind::number},
      {"pad = +3", "3", ValueKind::number},
      {"lanes = 0xffffffff", "0xffffffff", ValueKind::number},
      {"lanes = 0x0000FFFF", "0xffff", ValueKind::number},
      {"zoom = 1.375", "1.375", ValueKind::number},
      {"pad = 1.0", "1.0", ValueKind::number},  // a whole-number key refuses it, as before
      {"zoom = nan", "nan", ValueKind::number},
      {"present = true", "true", ValueKind::number},
      {"offsets = [0, 128, -1]", "0,128,-1", ValueKind::list},
      {"folder = \"/tmp/a \\\"b\\\"\"", "/tmp/a \"b\"", ValueKind::text},
      {"pad = 1  # a comment", "1", ValueKind::number},
      {"\"dtype\" = \"fp8\"", "fp8", ValueKind::text},
  };
  for (const Case& c : cases) {
    CAPTURE(c.line);
    const KeyValue v = one(c.line);
    CHECK(v.value == c.value);
    CHECK(v.kind == c.kind);
    CHECK(v.line == 1);
  }
}

TEST_CASE("A value without quotes, as the files were before they were TOML, reads as its text") {
  const KeyValueLines read = read_key_value_lines(
      "\xEF\xBB\xBF# BankLab scenario\r\n\r\n  dtype=bf16 \r\ntile = 32x32\n"
      "swizzle = cute:3,4,3\noffsets = 0,4\nlanes = ffff0000\nfolder = /home/me/my slides\n");
  REQUIRE(read.errors.empty());
  const std::vector<KeyValue> expected = {
      {3, "dtype", "bf16", ValueKind::text},
      {4, "tile", "32x32", ValueKind::text},
      {5, "swizzle", "cute:3,4,3", ValueKind::text},
      {6, "offsets", "0,4", ValueKind::text},
      {7, "lanes", "ffff0000", ValueKind::text},
      {8, "folder", "/home/me/my slides", ValueKind::text},
  };
  CHECK(read.values == expected);
}

TEST_CASE("A line that is not `key = value` is reported with its number; the others still read") {
  const KeyValueLines read = read_key_value_lines("pad = 1\nwhat\n= 3\nindex = 2\n[section]\n");
  REQUIRE(read.errors.size() == 3);
  CHECK(read.errors[0].line == 2);
  CHECK(read.errors[0].message == "expected 'key = value', got 'what'");
  CHECK(read.errors[1].line == 3);
  CHECK(read.errors[2].line == 5);
  REQUIRE(read.values.size() == 2);
  CHECK(read.values[1].key == "index");
  CHECK(read.values[1].line == 4);
  // Regression: toml++ asserted on "[," (a table header starting with a comma), which aborted
  // the program with assert() on in Release; it is a line like any other that is not a value.
  const KeyValueLines header = read_key_value_lines("[,\n[ ,x]\n");
  CHECK(header.errors.size() == 2);
  // An empty value is the caller's to refuse ("pad has no value"); a repeated key too.
  CHECK(one("pad =").value.empty());
}

TEST_CASE("What key_value_line writes reads back, quotes and control bytes included") {
  CHECK(key_value_line("dtype", "bf16", ValueKind::text) == "dtype = \"bf16\"\n");
  CHECK(key_value_line("pad", "1", ValueKind::number) == "pad = 1\n");
  CHECK(key_value_line("offsets", "0,128,-1", ValueKind::list) == "offsets = [0, 128, -1]\n");
  CHECK(key_value_line("folder", "a\"b\\c\x01", ValueKind::text) ==
        "folder = \"a\\\"b\\\\c\\u0001\"\n");
  for (const char* text : {"bf16", "/tmp/a b", " spaced ", "a\"b\\c", "tab\there", "\x7f", "é"}) {
    CAPTURE(text);
    CHECK(reads_back("key", text, ValueKind::text));
  }
  CHECK(reads_back("offsets", "0,128,-1", ValueKind::list));
  CHECK(reads_back("lanes", "0xff", ValueKind::number));
  // What TOML cannot hold is not kept: bytes that are not UTF-8, a key TOML cannot spell.
  CHECK_FALSE(reads_back("folder", "/tmp/\xff", ValueKind::text));
  CHECK_FALSE(reads_back("a\"b", "x", ValueKind::text));
}

}  // namespace
}  // namespace banklab
