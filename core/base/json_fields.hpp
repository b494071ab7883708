#pragma once
// Reading JSON through a list of fields: a structure's `fields(f, x)` function names each of its
// fields once, as f(key, member), f.object(key, member), f.list(key, members), and is walked by
// a reader (this one) or a writer (core/record/recording.cpp's, on JsonWriter). The reader
// takes each field from the object by its key (other keys are not looked at), checks its type
// and range, and throws JsonFieldError naming the field's path on the first mismatch:
// "recording.suites[0].results[2].gbps is not a number".
//
//   f(key, field)                            a text, whole number, real number or true/false
//   f.choice(key, field, name, parse, what)  an enum as its name ("is not WHAT" when unknown)
//   f.object(key, field) / f.list(key, items[, each])  a nested object / a list of them
//   f.check(problem)                         a check of what was read: problem() returns the
//                                            text after the object's path, or empty
//
// BasicJsonFieldReader<Self> is the reader, for a reader of more kinds of field to derive from
// (Self: the derived reader, which nested objects are read with); JsonFieldReader reads the
// kinds above. `fields` is found by argument-dependent lookup: declare it beside the structure
// or the derived reader.
#include <concepts>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace banklab {

struct JsonFieldError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

template <class Self>
class BasicJsonFieldReader {
 public:
  using json = nlohmann::json;

  // `path` names `j` in messages: "recording.suites[0]".
  BasicJsonFieldReader(const json& j, std::string path) : j_(j), path_(std::move(path)) {
    if (!j_.is_object()) throw JsonFieldError(path_ + " is not an object");
  }

  void operator()(std::string_view key, std::string& text) {
    const json& v = at(key);
    if (!v.is_string()) throw JsonFieldError(where(key) + " is not a string");
    text = v.template get<std::string>();
  }
  void operator()(std::string_view key, double& number) {
    const json& v = at(key);
    if (!v.is_number()) throw JsonFieldError(where(key) + " is not a number");
    number = v.template get<double>();
  }
  void operator()(std::string_view key, bool& flag) {
    const json& v = at(key);
    if (!v.is_boolean()) throw JsonFieldError(where(key) + " is not true or false");
    flag = v.template get<bool>();
  }
  template <std::integral T>
  void operator()(std::string_view key, T& number) {
    const json& v = at(key);
    if (!v.is_number_integer()) throw JsonFieldError(where(key) + " is not a whole number");
    const auto n = v.template get<std::int64_t>();
    if (n < std::int64_t(std::numeric_limits<T>::min()) ||
        (n > 0 && std::uint64_t(n) > std::uint64_t(std::numeric_limits<T>::max()))) {
      throw JsonFieldError(where(key) + " is out of range");
    }
    number = static_cast<T>(n);
  }
  template <class E, class Name, class Parse>
  void choice(std::string_view key, E& value, Name, Parse parse, std::string_view what) {
    std::string text;
    (*this)(key, text);
    const auto v = parse(text);  // an optional or an Expected
    if (!v) throw JsonFieldError(where(key) + " is not " + std::string(what));
    value = *v;
  }
  template <class T>
  void object(std::string_view key, T& value) {
    Self inner(at(key), where(key));
    fields(inner, value);
  }
  template <class T, class Each>
  void list(std::string_view key, std::vector<T>& items, Each each) {
    const json& list = list_at(key);
    for (std::size_t i = 0; i < list.size(); ++i) {
      Self inner(list[i], item(key, i));
      each(inner, items.emplace_back());
    }
  }
  template <class T>
  void list(std::string_view key, std::vector<T>& items) {
    list(key, items, [](Self& f, T& item) { fields(f, item); });
  }
  void list(std::string_view key, std::vector<std::string>& texts) {
    const json& list = list_at(key);
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (!list[i].is_string()) throw JsonFieldError(item(key, i) + " is not a string");
      texts.push_back(list[i].template get<std::string>());
    }
  }
  template <class Problem>
  void check(Problem problem) {
    if (const std::string p = problem(); !p.empty()) throw JsonFieldError(path_ + p);
  }

 protected:
  std::string where(std::string_view key) const { return path_ + "." + std::string(key); }
  std::string item(std::string_view key, std::size_t i) const {
    return where(key) + "[" + std::to_string(i) + "]";
  }
  const json& at(std::string_view key) const {
    const auto it = j_.find(key);
    if (it == j_.end()) throw JsonFieldError(where(key) + " is missing");
    return *it;
  }
  const json& list_at(std::string_view key) const {
    const json& v = at(key);
    if (!v.is_array()) throw JsonFieldError(where(key) + " is not a list");
    return v;
  }

 private:
  const json& j_;
  std::string path_;
};

class JsonFieldReader : public BasicJsonFieldReader<JsonFieldReader> {
 public:
  using BasicJsonFieldReader::BasicJsonFieldReader;
};

}  // namespace banklab
