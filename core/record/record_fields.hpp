#pragma once
// The JSON files of GPU runs (recording.hpp's recordings, trace.hpp's traces) are written and
// read through one list of fields per structure: `fields(f, x)` names each field once and is
// walked by FieldWriter (on the project's JsonWriter) or by FieldReader
// (core/base/json_fields.hpp's reader, plus the lanes of an access). A file is parsed only up to a
// depth its format can have.
#include <array>
#include <concepts>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/diagnostic.hpp"
#include "core/base/expected.hpp"
#include "core/base/json_fields.hpp"
#include "core/base/json_writer.hpp"
#include "core/model/access.hpp"
#include "core/model/hardware.hpp"

namespace banklab::record {

// Every real number a file holds: far below what any table prints.
inline constexpr int kRecordDecimals = 9;

class FieldWriter {
 public:
  explicit FieldWriter(JsonWriter& w) : w_(w) {}

  void operator()(std::string_view key, const std::string& text) { w_.field(key, text); }
  void operator()(std::string_view key, double number) { w_.field(key, number, kRecordDecimals); }
  template <std::integral T>
  void operator()(std::string_view key, T number) {
    w_.field(key, number);
  }
  // Lanes: a byte offset, or null for an inactive lane.
  void operator()(std::string_view key, const std::array<std::int64_t, kWarpSize>& offsets) {
    w_.key(key).begin_array();
    for (const std::int64_t o : offsets) {
      if (o == kInactiveLane) {
        w_.null();
      } else {
        w_.value(o);
      }
    }
    w_.end_array();
  }
  template <class E, class Name, class Parse>
  void choice(std::string_view key, E value, Name name, Parse, std::string_view) {
    w_.field(key, name(value));
  }
  template <class T>
  void object(std::string_view key, T& value) {
    w_.key(key).begin_object();
    fields(*this, value);
    w_.end_object();
  }
  template <class T, class Each>
  void list(std::string_view key, std::vector<T>& items, Each each) {
    w_.key(key).begin_array();
    for (T& item : items) {
      w_.begin_object();
      each(*this, item);
      w_.end_object();
    }
    w_.end_array();
  }
  template <class T>
  void list(std::string_view key, std::vector<T>& items) {
    list(key, items, [](FieldWriter& f, T& item) { fields(f, item); });
  }
  void list(std::string_view key, std::vector<std::string>& texts) {
    w_.key(key).begin_array();
    for (const std::string& text : texts) w_.value(text);
    w_.end_array();
  }
  template <class Problem>
  void check(Problem) {}

 private:
  JsonWriter& w_;
};

// The reader of core's json_fields.hpp, and lanes: a byte offset in shared memory, or null for
// an inactive lane.
class FieldReader : public BasicJsonFieldReader<FieldReader> {
 public:
  using BasicJsonFieldReader::BasicJsonFieldReader;
  using BasicJsonFieldReader::operator();

  void operator()(std::string_view key, std::array<std::int64_t, kWarpSize>& offsets) {
    const nlohmann::json& list = at(key);
    if (!list.is_array()) throw JsonFieldError(where(key) + " is not a list");
    if (list.size() != offsets.size()) throw JsonFieldError(where(key) + " does not hold 32 lanes");
    for (std::size_t lane = 0; lane < offsets.size(); ++lane) {
      const nlohmann::json& o = list[lane];
      if (o.is_null()) {
        offsets[lane] = kInactiveLane;
      } else if (o.is_number_integer() && o.get<std::int64_t>() >= 0 &&
                 o.get<std::int64_t>() < kSharedMemoryBytes) {
        offsets[lane] = o.get<std::int64_t>();
      } else {
        throw JsonFieldError(item(key, lane) + " is not a byte offset in shared memory or null");
      }
    }
  }
};

// An access's fields sit in the object of the row that made it (a recorded pattern, a traced
// warp-instruction): its op, width and 32 lanes, checked as an access.
template <class F>
void fields(F& f, WarpAccess& a) {
  f.choice("op", a.op, op_name, parse_op, "an op BankLab knows");
  f("width", a.width);
  f("offsets", a.offsets);
  f.check([&]() -> std::string {
    const std::string e = first_error(check_access(a));
    return e.empty() ? e : " is not a valid access: " + e;
  });
}

// What a kind of file is called and how it starts: {"format": FORMAT, "version": VERSION, ...}.
struct RecordFormat {
  std::string_view what;    // "GPU recording", "trace": "not a BankLab trace: ..."
  std::string_view path;    // the root's name in a field's path: "trace.accesses[3].warp"
  std::string_view format;  // "banklab-trace"
  int version = 1;
  int max_depth = 16;  // text nesting deeper is refused before it is built
};

// A reader of `j`'s fields once its "format" and "version" are the format's; JsonFieldError
// ("it is JSON, but not a BankLab trace ...", "it is a trace of format version 2; ...")
// otherwise.
FieldReader open_record(const nlohmann::json& j, const RecordFormat& f);

// The text as a file of the format: parsed no deeper than its depth, then read by `read` (the
// json in, a T out, throwing JsonFieldError for a field that does not hold up). Every problem
// is one sentence: "not a BankLab trace: not valid JSON (...)", "not a usable BankLab trace:
// trace.accesses[3].warp is 2; it must be 0 to 1".
Expected<nlohmann::json> parse_record_json(std::string_view text, const RecordFormat& f);
template <class T, class Read>
Expected<T> read_record(std::string_view text, const RecordFormat& f, Read read) {
  const Expected<nlohmann::json> j = parse_record_json(text, f);
  if (!j) return Error{j.error()};
  try {
    return read(*j);
  } catch (const JsonFieldError& bad) {
    return Error{"not a usable BankLab " + std::string(f.what) + ": " + bad.what()};
  } catch (const nlohmann::json::exception& e) {
    return Error{"not a usable BankLab " + std::string(f.what) + ": " + e.what()};
  }
}

}  // namespace banklab::record
