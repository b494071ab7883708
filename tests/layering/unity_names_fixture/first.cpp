// A fixture of tests/layering/unity_names.cpp, never compiled: names two sources of one target
// share at namespace scope. The test `unity_names_finds` expects exactly the clashes marked
// "clash" (with second.cpp) and none of those marked "fine".
#include <filesystem>
#include <string>

#define BANKLAB_FIXTURE_LIMIT 4  // clash: a macro and a constant of second.cpp

namespace fs = std::filesystem;  // fine: the same alias in second.cpp

namespace banklab::fixture {

struct Cell;  // fine: a forward declaration of second.cpp's Cell

namespace {

// clash: an overload of second.cpp's lit() that a batch would offer to its calls
bool lit(int lane) {
  return lane % 2 == 0;
}

constexpr int kRows = 32;  // clash: second.cpp's kRows is another constant

const std::string kTitle = "lanes", kCaption = "banks";  // clash: kCaption, second declarator

}  // namespace

int rows() {           // fine: one external function, declared again in second.cpp
  const int lane = 3;  // fine: a local name
  return lit(lane) ? kRows : 0;
}

}  // namespace banklab::fixture

namespace banklab::elsewhere {
namespace {
int columns() {  // fine: second.cpp's columns() is in a sibling namespace
  return 32;
}
}  // namespace
}  // namespace banklab::elsewhere

FIXTURE_CASE("lanes") {  // fine: a macro's call (as doctest's TEST_CASE), in second.cpp too
  rows();
}
