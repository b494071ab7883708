// The other source of tests/layering/unity_names.cpp's fixture (first.cpp says what it holds).
#include <filesystem>

namespace fs = std::filesystem;

namespace banklab {

namespace {
constexpr int BANKLAB_FIXTURE_LIMIT = 8;
}  // namespace

namespace fixture {

struct Cell {
  int width() const;
};
int Cell::width() const {
  return 4;
}

namespace {

bool lit(const char* text, int lane) {
  return text[lane] != 0;
}

const int kRows = 16;
constexpr char kCaption[] = "banks";

}  // namespace

int rows();

}  // namespace fixture

namespace sibling {
namespace {
int columns() {
  return 33;
}
}  // namespace
}  // namespace sibling

}  // namespace banklab

namespace {
FIXTURE_CASE("banks") {
  banklab::fixture::rows();
}
}  // namespace
