#include "banklab/diagnostic.hpp"

#include <algorithm>
#include <ostream>

namespace banklab {

std::string_view severity_name(Severity s) {
  switch (s) {
    case Severity::note: return "note";
    case Severity::warning: return "warning";
    case Severity::error: return "error";
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
  os << severity_name(d.severity) << " [" << d.rule << "]";
  if (d.lane >= 0) os << " lane " << d.lane;
  return os << ": " << d.message;
}

}  // namespace banklab
