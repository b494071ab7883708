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
#include "core/base/json_fields.hpp"
#include "core/base/json_writer.hpp"
#include "core/model/access.hpp"
#include "core/model/hardware.hpp"

namespace banklab::gpu {

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

// Thrown while parsing when the text nests deeper than `max_depth` levels.
struct TooDeep {};

// The text as JSON, refused (TooDeep) as soon as it nests deeper than `max_depth`, before the
// deeper part is built; nlohmann's exceptions for text that is not JSON.
nlohmann::json parse_json_within_depth(std::string_view text, int max_depth);

}  // namespace banklab::gpu
