#include "app/figures/projector.hpp"

#include <algorithm>
#include <cmath>

namespace banklab::figures {

TypeMinimums projector_minimums(float height) {
  // A screen shorter than the projector's (a laptop's window) keeps the projector's sizes: the
  // room does not get closer when the window gets smaller.
  const float scale = std::max(1.0f, height / kProjectorHeight);
  return TypeMinimums{std::floor(16.0f * scale), std::floor(20.0f * scale),
                      std::floor(32.0f * scale)};
}

TypeMinimums screen_minimums(float width, float height) {
  return width < kHandheldWidth ? kHandheldMinimums : projector_minimums(height);
}

}  // namespace banklab::figures
