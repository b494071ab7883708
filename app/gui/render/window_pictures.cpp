#include "app/gui/render/window_pictures.hpp"

#include <backends/imgui_impl_opengl3.h>
#include <imgui_internal.h>  // FindWindowByName, ImGuiWindow::RootWindow: which lists are one window

#include <algorithm>
#include <cassert>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace banklab::gui {

namespace {

template <class T>
bool same(const ImVector<T>& a, const ImVector<T>& b) {
  return a.Size == b.Size && (a.Size == 0 || std::memcmp(a.Data, b.Data, a.size_in_bytes()) == 0);
}

// Field by field: a command's padding is not part of what it draws.
bool same(const ImVector<ImDrawCmd>& a, const ImVector<ImDrawCmd>& b) {
  if (a.Size != b.Size) return false;
  for (int i = 0; i < a.Size; ++i) {
    const ImDrawCmd &x = a[i], &y = b[i];
    if (x.ClipRect.x != y.ClipRect.x || x.ClipRect.y != y.ClipRect.y ||
        x.ClipRect.z != y.ClipRect.z || x.ClipRect.w != y.ClipRect.w ||
        x.TextureId != y.TextureId || x.VtxOffset != y.VtxOffset || x.IdxOffset != y.IdxOffset ||
        x.ElemCount != y.ElemCount || x.UserCallback != y.UserCallback ||
        x.UserCallbackData != y.UserCallbackData)
      return false;
  }
  return true;
}

template <class T>
void copy_into(ImVector<T>& to, const ImVector<T>& from) {
  to.resize(from.Size);  // keeps the capacity a window already had
  if (from.Size > 0) std::memcpy(to.Data, from.Data, from.size_in_bytes());
}

bool same_vec2(ImVec2 a, ImVec2 b) {
  return a.x == b.x && a.y == b.y;
}

// The window whose lists a list belongs to (a child window's is its parent's), or none for a
// list of no window (ImGui's foreground and background lists).
const ImGuiWindow* root_window(const ImDrawList& list) {
  if (!list._OwnerName) return nullptr;
  const ImGuiWindow* w = ImGui::FindWindowByName(list._OwnerName);
  return w ? w->RootWindow : nullptr;
}

// Only ImGui's own drawing from the font atlas: a callback draws from buffers the list does
// not hold, and another texture may change under the same list.
bool only_font_atlas(ImDrawList* const* lists, int count) {
  const ImTextureID atlas = ImGui::GetIO().Fonts->TexID;
  for (int i = 0; i < count; ++i) {
    for (const ImDrawCmd& c : lists[i]->CmdBuffer) {
      if (c.UserCallback != nullptr || c.TextureId != atlas) return false;
    }
  }
  return true;
}

// The picture's pixels fall on the screen's only at a whole framebuffer scale.
bool whole_scale(ImVec2 scale) {
  return scale.x == scale.y && scale.x >= 1.0f && scale.x == std::floor(scale.x);
}

// The picture holds every pixel of its rectangle as it ends up: copied, not blended.
void opaque(const ImDrawList*, const ImDrawCmd*) {
  glDisable(GL_BLEND);
}

struct PixelRect {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // framebuffer pixels from the top left, x1 and y1 past
  bool empty() const { return x1 <= x0 || y1 <= y0; }
  bool meets(const PixelRect& o) const {
    return !empty() && !o.empty() && x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1;
  }
};

// The pixels the lists can touch (no fewer: a triangle stays within its vertices' bounds and
// its command's clip rectangle): their vertices' bounds within the union of their clip
// rectangles and the framebuffer.
PixelRect covered_pixels(ImDrawList* const* lists, int count, const ImDrawData& draw) {
  ImVec2 lo(FLT_MAX, FLT_MAX), hi(-FLT_MAX, -FLT_MAX);
  ImVec4 clip(FLT_MAX, FLT_MAX, -FLT_MAX, -FLT_MAX);
  for (int i = 0; i < count; ++i) {
    for (const ImDrawVert& v : lists[i]->VtxBuffer) {
      lo = ImMin(lo, v.pos);
      hi = ImMax(hi, v.pos);
    }
    for (const ImDrawCmd& c : lists[i]->CmdBuffer) {
      clip = ImVec4(std::min(clip.x, c.ClipRect.x), std::min(clip.y, c.ClipRect.y),
                    std::max(clip.z, c.ClipRect.z), std::max(clip.w, c.ClipRect.w));
    }
  }
  lo = ImMax(lo, ImVec2(clip.x, clip.y));
  hi = ImMin(hi, ImVec2(clip.z, clip.w));
  const ImVec2 s = draw.FramebufferScale;
  const int fb_w = static_cast<int>(draw.DisplaySize.x * s.x);
  const int fb_h = static_cast<int>(draw.DisplaySize.y * s.y);
  PixelRect r;
  r.x0 = std::max(0, static_cast<int>(std::floor((lo.x - draw.DisplayPos.x) * s.x)));
  r.y0 = std::max(0, static_cast<int>(std::floor((lo.y - draw.DisplayPos.y) * s.y)));
  r.x1 = std::min(fb_w, static_cast<int>(std::ceil((hi.x - draw.DisplayPos.x) * s.x)));
  r.y1 = std::min(fb_h, static_cast<int>(std::ceil((hi.y - draw.DisplayPos.y) * s.y)));
  return r;
}

// A texture of w x h pixels with a framebuffer around it; false when the driver refuses it.
bool make_target(GLuint& texture, GLuint& framebuffer, int w, int h) {
  if (!texture) glGenTextures(1, &texture);
  if (!framebuffer) glGenFramebuffers(1, &framebuffer);
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glBindTexture(GL_TEXTURE_2D, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
  return glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
}

}  // namespace

struct WindowPictures::Window {
  // A list as it was last seen.
  struct Copy {
    ImVector<ImDrawCmd> commands;
    ImVector<ImDrawIdx> indices;
    ImVector<ImDrawVert> vertices;
  };

  explicit Window(const ImDrawList* list) : own(list), quad(ImGui::GetDrawListSharedData()) {}

  const ImDrawList* own;     // the window's own list, the first of its lists: the key
  int first = 0, count = 0;  // where its lists sit in this frame's draw data
  std::vector<Copy> copies;  // its lists as last seen (a window that may be pictured)
  ImVec2 display_pos, display_size, scale;
  ImVec4 clear;           // the frame's background, under everything
  PixelRect rect;         // the pixels its lists can touch
  bool seen = false;      // in this frame's draw data
  bool eligible = false;  // only the font atlas, at a whole framebuffer scale
  bool still = false;     // its lists (and the frame's size and background) as last frame
  bool painted = false;   // the texture holds `rect` as the lists in `copies` leave it
  bool use = false;       // this frame draws the picture
  std::vector<const ImDrawList*> underlay;  // the earlier windows painted under it
  GLuint texture = 0, framebuffer = 0;
  int width = 0, height = 0;  // the texture's size in pixels: the framebuffer's
  ImDrawList quad;            // the picture, as ImGui's backend draws it

  // The frame's background, then the earlier windows that meet `rect`, then this window's
  // lists, into the texture (so that it holds every pixel of `rect` as the screen will), and
  // the quad that copies the texture there; false when the driver refuses the texture.
  bool paint(const ImDrawData& draw, const std::vector<const Window*>& under);

  void release() {
    if (framebuffer) glDeleteFramebuffers(1, &framebuffer);
    if (texture) glDeleteTextures(1, &texture);
    framebuffer = texture = 0;
    width = height = 0;
    painted = false;
  }
};

bool WindowPictures::Window::paint(const ImDrawData& draw,
                                   const std::vector<const Window*>& under) {
  // A texture the framebuffer's size: the lists are drawn with the frame's own viewport,
  // projection and scissor rectangles, so that each triangle covers the same pixels as on the
  // screen (another origin would round some vertex a hair the other way, and an edge through a
  // pixel's centre would take or leave that pixel).
  const ImVec2 s = draw.FramebufferScale;
  const int fb_w = static_cast<int>(draw.DisplaySize.x * s.x);
  const int fb_h = static_cast<int>(draw.DisplaySize.y * s.y);
  if (fb_w != width || fb_h != height) {
    if (!make_target(texture, framebuffer, fb_w, fb_h)) {
      release();
      return false;
    }
    width = fb_w;
    height = fb_h;
  } else {
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
  }
  // Only `rect` is cleared and copied: the rest of the texture is never read.
  glEnable(GL_SCISSOR_TEST);
  glScissor(rect.x0, fb_h - rect.y1, rect.x1 - rect.x0, rect.y1 - rect.y0);
  glClearColor(clear.x, clear.y, clear.z, clear.w);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);

  std::vector<ImDrawList*> lists;
  for (const Window* u : under) {
    for (int k = 0; k < u->count; ++k) lists.push_back(draw.CmdLists[u->first + k]);
  }
  for (int k = 0; k < count; ++k) lists.push_back(draw.CmdLists[first + k]);
  ImDrawData part = draw;
  part.CmdLists = lists.data();
  part.CmdListsCount = static_cast<int>(lists.size());
  part.TotalVtxCount = part.TotalIdxCount = 0;
  for (const ImDrawList* l : lists) {
    part.TotalVtxCount += l->VtxBuffer.Size;
    part.TotalIdxCount += l->IdxBuffer.Size;
  }
  ImGui_ImplOpenGL3_RenderDrawData(&part);

  // Copied without blending, `rect` of the texture to the same pixels (GL's rows count from the
  // bottom), then back to ImGui's own state.
  quad.CmdBuffer.resize(0);
  quad.IdxBuffer.resize(0);
  quad.VtxBuffer.resize(0);
  ImDrawCmd copy;
  copy.UserCallback = opaque;
  quad.CmdBuffer.push_back(copy);
  ImDrawCmd image;
  image.ClipRect =
      ImVec4(draw.DisplayPos.x, draw.DisplayPos.y, draw.DisplayPos.x + draw.DisplaySize.x,
             draw.DisplayPos.y + draw.DisplaySize.y);
  image.TextureId = reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(texture));
  image.ElemCount = 6;
  quad.CmdBuffer.push_back(image);
  ImDrawCmd reset;
  reset.UserCallback = ImDrawCallback_ResetRenderState;
  quad.CmdBuffer.push_back(reset);
  const ImVec2 a(draw.DisplayPos.x + static_cast<float>(rect.x0) / s.x,
                 draw.DisplayPos.y + static_cast<float>(rect.y0) / s.y);
  const ImVec2 b(draw.DisplayPos.x + static_cast<float>(rect.x1) / s.x,
                 draw.DisplayPos.y + static_cast<float>(rect.y1) / s.y);
  const float u0 = static_cast<float>(rect.x0) / static_cast<float>(fb_w);
  const float u1 = static_cast<float>(rect.x1) / static_cast<float>(fb_w);
  const float v0 = static_cast<float>(fb_h - rect.y0) / static_cast<float>(fb_h);
  const float v1 = static_cast<float>(fb_h - rect.y1) / static_cast<float>(fb_h);
  const ImU32 white = IM_COL32_WHITE;
  quad.VtxBuffer.push_back(ImDrawVert{a, ImVec2(u0, v0), white});
  quad.VtxBuffer.push_back(ImDrawVert{ImVec2(b.x, a.y), ImVec2(u1, v0), white});
  quad.VtxBuffer.push_back(ImDrawVert{b, ImVec2(u1, v1), white});
  quad.VtxBuffer.push_back(ImDrawVert{ImVec2(a.x, b.y), ImVec2(u0, v1), white});
  for (int i : {0, 1, 2, 0, 2, 3}) quad.IdxBuffer.push_back(static_cast<ImDrawIdx>(i));
  return true;
}

WindowPictures::WindowPictures() = default;

WindowPictures::~WindowPictures() {
  // shutdown() must run while the context is current.
  assert(windows_.empty() && "WindowPictures::shutdown() must run before the context goes");
}

void WindowPictures::update(const ImDrawData& draw, ImVec4 clear) {
  for (auto& w : windows_) w->seen = false;
  frame_.clear();
  const bool scale_fits = whole_scale(draw.FramebufferScale);
  // Each window's lists against the last frame's.
  for (int i = 0; i < draw.CmdListsCount;) {
    ImDrawList* const* lists = draw.CmdLists + i;
    const ImGuiWindow* root = root_window(*lists[0]);
    int count = 1;
    while (root && i + count < draw.CmdListsCount && root_window(*lists[count]) == root) ++count;
    auto found = std::find_if(windows_.begin(), windows_.end(),
                              [&](const auto& w) { return w->own == lists[0]; });
    if (found == windows_.end()) {
      windows_.push_back(std::make_unique<Window>(lists[0]));
      found = windows_.end() - 1;
    }
    Window& w = **found;
    frame_.push_back(&w);
    w.seen = true;
    w.first = i;
    w.count = count;
    w.use = false;
    i += count;
    w.eligible = scale_fits && only_font_atlas(lists, count);
    if (!w.eligible) {
      w.copies.clear();
      w.painted = w.still = false;
      w.rect = covered_pixels(lists, count, draw);
      continue;
    }
    w.still = static_cast<int>(w.copies.size()) == count &&
              same_vec2(w.display_pos, draw.DisplayPos) &&
              same_vec2(w.display_size, draw.DisplaySize) &&
              same_vec2(w.scale, draw.FramebufferScale) && w.clear.x == clear.x &&
              w.clear.y == clear.y && w.clear.z == clear.z && w.clear.w == clear.w;
    for (int k = 0; w.still && k < count; ++k) {
      const Window::Copy& c = w.copies[static_cast<std::size_t>(k)];
      w.still = same(c.commands, lists[k]->CmdBuffer) && same(c.indices, lists[k]->IdxBuffer) &&
                same(c.vertices, lists[k]->VtxBuffer);
    }
    if (!w.still) {  // drawn as it is; pictured if the next frame shows it the same
      w.copies.resize(static_cast<std::size_t>(count));
      for (int k = 0; k < count; ++k) {
        Window::Copy& c = w.copies[static_cast<std::size_t>(k)];
        copy_into(c.commands, lists[k]->CmdBuffer);
        copy_into(c.indices, lists[k]->IdxBuffer);
        copy_into(c.vertices, lists[k]->VtxBuffer);
      }
      w.display_pos = draw.DisplayPos;
      w.display_size = draw.DisplaySize;
      w.scale = draw.FramebufferScale;
      w.clear = clear;
      w.rect = covered_pixels(lists, count, draw);
      w.painted = false;
    }
  }
  // The windows that held still, pictured over what the earlier windows draw in their
  // rectangle: each of those must hold still too.
  GLint framebuffer = 0;
  bool painting = false;
  std::vector<const Window*> under;
  std::vector<const ImDrawList*> under_lists;
  for (std::size_t n = 0; n < frame_.size(); ++n) {
    Window& w = *frame_[n];
    if (!w.eligible || !w.still || w.rect.empty()) continue;
    under.clear();
    under_lists.clear();
    bool settled = true;
    for (std::size_t e = 0; e < n; ++e) {
      const Window& earlier = *frame_[e];
      if (!earlier.rect.meets(w.rect)) continue;
      settled = settled && earlier.eligible && earlier.still;
      under.push_back(&earlier);
      under_lists.push_back(earlier.own);
    }
    if (!settled || under_lists != w.underlay) w.painted = false;
    if (!settled) continue;
    if (!w.painted) {
      if (!painting) {
        glGetIntegerv(GL_FRAMEBUFFER_BINDING, &framebuffer);
        painting = true;
      }
      w.painted = w.paint(draw, under);
      w.underlay = under_lists;
    }
    w.use = w.painted;
  }
  if (painting) glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(framebuffer));
  // Windows closed or hidden give their textures back.
  for (auto& w : windows_) {
    if (!w->seen) w->release();
  }
  std::erase_if(windows_, [](const auto& w) { return !w->seen; });
}

void WindowPictures::draw(const ImDrawData& draw) {
  lists_.resize(0);
  pictured_ = 0;
  for (const Window* w : frame_) {
    if (w->use) {
      lists_.push_back(const_cast<ImDrawList*>(&w->quad));
      ++pictured_;
    } else {
      for (int k = 0; k < w->count; ++k) lists_.push_back(draw.CmdLists[w->first + k]);
    }
  }
  ImDrawData frame = draw;
  frame.CmdLists = lists_.Data;
  frame.CmdListsCount = lists_.Size;
  frame.TotalVtxCount = frame.TotalIdxCount = 0;
  for (const ImDrawList* l : lists_) {
    frame.TotalVtxCount += l->VtxBuffer.Size;
    frame.TotalIdxCount += l->IdxBuffer.Size;
  }
  ImGui_ImplOpenGL3_RenderDrawData(&frame);
}

void WindowPictures::shutdown() {
  for (auto& w : windows_) w->release();
  windows_.clear();
  frame_.clear();
}

}  // namespace banklab::gui
