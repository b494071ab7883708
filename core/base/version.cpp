#include "core/base/version.hpp"

#include "banklab_version_info.hpp"
#include "core/base/data_dir.hpp"

namespace banklab {

std::string_view version() {
  return BANKLAB_VERSION_STRING;
}

std::string_view commit() {
  return BANKLAB_COMMIT_STRING;
}

std::string version_text(std::string_view program) {
  std::string text(program);
  text += ' ';
  text += version();
  text += " (commit ";
  text += commit();
  text += ")\ndata: ";
  const Expected<std::filesystem::path> data = data_dir();
  text += data ? data->string() : "none: " + data.error();
  text += '\n';
  return text;
}

}  // namespace banklab
