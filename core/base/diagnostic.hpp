#pragma once
// What the core says about an input it cannot analyse, or about a result the user should
// read twice. Errors stop the analysis; warnings and notes ride along with a valid result.
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace banklab {

enum class Severity : std::uint8_t { note, warning, error };

struct Diagnostic {
  Severity severity = Severity::error;
  std::string rule;     // short identifier: "alignment", "bounds", "tile-size", ...
  std::string message;  // a full sentence that names the rule and the numbers
  int lane = -1;        // the lane concerned, -1 when it concerns the whole access

  friend bool operator==(const Diagnostic&, const Diagnostic&) = default;
};

std::string_view severity_name(Severity s);  // "note", "warning", "error"
bool has_error(const std::vector<Diagnostic>& diagnostics);
// The first error's message, or "" when there is none.
std::string first_error(const std::vector<Diagnostic>& diagnostics);

std::ostream& operator<<(std::ostream& os,
                         const Diagnostic& d);  // "error [alignment]: lane 8: ..."

}  // namespace banklab
