#pragma once
// The one JSON writer: every JSON text BankLab prints (analyze, explain, presets, the batch,
// gpu-bench, validate, the GUI's --geometry) is appended to a std::string through it, so the
// escaping, the commas and the number formats live in one place.
//
//   std::string out;
//   JsonWriter w(out);
//   w.begin_object().field("name", p.name).field("wavefronts", 4);
//   w.key("lanes").begin_array();
//   for (int lane : lanes) w.value(lane);
//   w.end_array().end_object();  // {"name":"fp32-pad1","wavefronts":4,"lanes":[0,1]}
//
// Compact: no spaces, no newline at the end. Strings are escaped as JSON requires and are
// always valid UTF-8 (an invalid byte becomes U+FFFD), since messages quote user input. Keys are
// the program's own ASCII names and are written as given. The writer appends to a string the
// caller owns, so a batch of 100,000 objects reuses one buffer.
#include <algorithm>
#include <charconv>
#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>

namespace banklab {

class JsonWriter {
 public:
  explicit JsonWriter(std::string& out) : out_(out) {}

  JsonWriter& begin_object() { return open('{'); }
  JsonWriter& end_object() { return close('}'); }
  JsonWriter& begin_array() { return open('['); }
  JsonWriter& end_array() { return close(']'); }

  // The key of the next value (a begin_object(), begin_array() or value()).
  JsonWriter& key(std::string_view name) {
    separate();
    raw_key(name);
    need_comma_ = false;
    return *this;
  }

  // Text is escaped; a real number needs its count of decimals (printf's %.*f), or is a float
  // written in the shortest form that reads back the same; a number that is not finite is null.
  template <class T>
  JsonWriter& value(const T& v) {
    if constexpr (kScalar<T>) {
      Chunk c;
      c.comma(need_comma_);
      c.scalar(v);
      out_.append(c.text, c.end);
    } else {
      separate();
      raw(v);
    }
    return *this;
  }
  JsonWriter& value(double number, int decimals) {
    separate();
    raw(number, decimals);
    return *this;
  }
  JsonWriter& null() {
    separate();
    out_ += "null";
    return *this;
  }

  // "name":value, the common case in one call.
  template <class T>
  JsonWriter& field(std::string_view name, const T& v) {
    Chunk c;
    if (name.size() > kMaxKey) {
      key(name);
      return value(v);
    }
    c.comma(need_comma_);
    c.key(name);
    if constexpr (kScalar<T>) {
      c.scalar(v);
      out_.append(c.text, c.end);
    } else {
      out_.append(c.text, c.end);
      raw(v);
    }
    return *this;
  }
  JsonWriter& field(std::string_view name, double number, int decimals) {
    key(name);
    return value(number, decimals);  // value() sets the comma the next field needs
  }

 private:
  // Whole numbers and true/false are formatted into a small buffer with their comma and key and
  // appended to the string at once: one append a field, where appending piece by piece made
  // the batch (analyze --batch) measurably slower (docs/benchmarks.md, "The one JSON writer").
  template <class T>
  static constexpr bool kScalar = std::integral<T>;
  static constexpr std::size_t kMaxKey = 64;
  struct Chunk {
    char text[kMaxKey + 32];
    char* end = text;
    void comma(bool& need) {
      if (need) *end++ = ',';
      need = true;
    }
    void key(std::string_view name) {
      *end++ = '"';
      end = std::copy(name.begin(), name.end(), end);
      *end++ = '"';
      *end++ = ':';
    }
    void scalar(bool b) { end = b ? std::copy_n("true", 4, end) : std::copy_n("false", 5, end); }
    template <std::integral T>
    requires(!std::same_as<T, bool>) void scalar(T number) {
      end = std::to_chars(end, text + sizeof text, static_cast<std::int64_t>(number)).ptr;
    }
  };

  JsonWriter& open(char bracket) {
    separate();
    out_ += bracket;
    need_comma_ = false;
    return *this;
  }
  JsonWriter& close(char bracket) {
    out_ += bracket;
    need_comma_ = true;
    return *this;
  }
  // A comma before every element of an object or array but the first. need_comma_ is read and
  // written once an element: the string's stores may alias it, so the raw writers below never
  // touch it (this keeps the batch's JSON as fast as hand-written appends).
  void separate() {
    if (need_comma_) out_ += ',';
    need_comma_ = true;
  }

  void raw_key(std::string_view name) {
    out_ += '"';
    out_ += name;
    out_ += "\":";
  }
  void raw(std::string_view text);
  void raw(const std::string& text) { raw(std::string_view(text)); }
  void raw(const char* text) { raw(std::string_view(text)); }
  void raw(double number, int decimals);
  void raw(float number);
  void raw(double number) = delete;  // say how many decimals

  std::string& out_;
  bool need_comma_ = false;
};

}  // namespace banklab
