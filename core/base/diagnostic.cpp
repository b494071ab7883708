#include "core/base/diagnostic.hpp"

#include <algorithm>
#include <ostream>

namespace banklab {

std::string_view severity_name(Severity s) {
  switch (s) {
    case Severity::note:
      return "note";
    case Severity::warning:
      return "warning";
    case Severity::error:
      return "error";
  }
  return "error";
}

bool has_error(const std::vector<Diagnostic>& diagnostics) {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::error; });
}

std::string first_error(const std::vector<Diagnostic>& diagnostics) {
  for (const Diagnostic& d : diagnostics)
    if (d.severity == Severity::error) return d.message;
  return {};
}

std::ostream& operator<<(std::ostream& os, const Diagnostic& d) {
  // The message already names the lane it concerns ("lane 8: a 16-byte access ..."), so the
  // lane field is for programs, not repeated here.
  return os << severity_name(d.severity) << " [" << d.rule << "]: " << d.message;
}

}  // namespace banklab
