#pragma once
// A value or a message saying why there is none. C++20 has no std::expected, and the core
// reports every bad input as a sentence that names the rule and the numbers, so this is all
// the error type it needs. Expected<void> is a step that gives nothing back: done, or why not
// (a file written, flags read).
#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace banklab {

struct Error {
  std::string message;
};

template <class T>
class Expected {
 public:
  Expected(T value) : state_(std::move(value)) {}
  Expected(Error error) : state_(std::move(error)) {}

  bool has_value() const { return state_.index() == 0; }
  explicit operator bool() const { return has_value(); }

  const T& value() const& {
    assert(has_value() && "Expected::value() called on an error");
    return std::get<0>(state_);
  }
  T& value() & {
    assert(has_value() && "Expected::value() called on an error");
    return std::get<0>(state_);
  }
  T&& value() && {
    assert(has_value() && "Expected::value() called on an error");
    return std::get<0>(std::move(state_));
  }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

  const std::string& error() const {
    assert(!has_value() && "Expected::error() called on a value");
    return std::get<1>(state_).message;
  }

 private:
  std::variant<T, Error> state_;
};

template <>
class Expected<void> {
 public:
  Expected() = default;  // done
  Expected(Error error) : error_(std::move(error)) {}

  bool has_value() const { return !error_.has_value(); }
  explicit operator bool() const { return has_value(); }

  const std::string& error() const {
    assert(!has_value() && "Expected::error() called on a success");
    return error_->message;
  }

 private:
  std::optional<Error> error_;
};

}  // namespace banklab
