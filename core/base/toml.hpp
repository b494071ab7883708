#pragma once
// toml++ (Debian's libtomlplusplus-dev, header-only) as the core reads TOML with it: the lessons
// (core/teach/lesson.cpp) and files of `key = value` lines (key_value_file.hpp). Include toml++
// through this header only, so that every use of its inline functions sees one definition.
//
// BankLab's Release builds keep assert() on (CMakeLists.txt), and toml++ 3.3 asserts on some
// malformed input it otherwise reports: the line "[," aborted `banklab lesson check` instead
// of naming the line. With its asserts off (and without NDEBUG, which would turn them into
// optimiser assumptions), the parser goes on to its own error: "expected bare key starting
// character or string delimiter, saw ','".
#define TOML_ASSERT(expr) static_cast<void>(0)
#include <toml++/toml.h>
