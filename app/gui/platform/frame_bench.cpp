#include "app/gui/platform/frame_bench.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace banklab::gui {

TimingSummary summarize(std::vector<double> ms) {
  TimingSummary t;
  t.count = static_cast<int>(ms.size());
  if (ms.empty()) return t;
  std::sort(ms.begin(), ms.end());
  t.mean = std::accumulate(ms.begin(), ms.end(), 0.0) / static_cast<double>(ms.size());
  t.median = ms[ms.size() / 2];
  // Nearest-rank 95th percentile.
  std::size_t rank = (ms.size() * 95 + 99) / 100;
  t.p95 = ms[std::max<std::size_t>(rank, 1) - 1];
  t.max = ms.back();
  return t;
}

std::string to_string(const TimingSummary& t) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "mean %.2f ms, median %.2f, p95 %.2f, max %.2f (n = %d)", t.mean,
                t.median, t.p95, t.max, t.count);
  return buf;
}

std::vector<DrawListCost> draw_list_costs(const ImDrawData& draw) {
  std::vector<DrawListCost> lists;
  for (int i = 0; i < draw.CmdListsCount; ++i) {
    const ImDrawList& l = *draw.CmdLists[i];
    DrawListCost c{l._OwnerName ? l._OwnerName : "?", l.VtxBuffer.Size, l.IdxBuffer.Size, 0, 0};
    for (const ImDrawCmd& cmd : l.CmdBuffer) ++(cmd.UserCallback ? c.callbacks : c.draws);
    lists.push_back(std::move(c));
  }
  return lists;
}

std::string bench_report(const BenchRecord& r) {
  TimingSummary wall = summarize(r.wall_ms);
  char buf[512];
  std::string out;
  std::snprintf(buf, sizeof buf,
                "banklab-gui benchmark: preset %s, %dx%d, renderer %s\n"
                "last frame: %d ImGui vertices, %d GL quads, %d GL segments, %d windows drawn "
                "from their pictures\n",
                r.preset.c_str(), r.width, r.height, r.renderer.c_str(), r.vertices, r.quads,
                r.segments, r.pictured);
  out += buf;
  // A browser tells a page neither its process's CPU time nor its GPU's: those lines are left
  // out where nothing was measured.
  if (r.first_frame_cpu_ms > 0) {
    std::snprintf(buf, sizeof buf,
                  "time to first frame: %.1f ms (process CPU time by then: %.1f ms)\n"
                  "process CPU time per frame after the first: %.2f ms\n",
                  r.first_frame_ms, r.first_frame_cpu_ms, r.cpu_per_frame_ms);
  } else {
    std::snprintf(buf, sizeof buf, "time to first frame: %.1f ms\n", r.first_frame_ms);
  }
  out += buf;
  std::snprintf(buf, sizeof buf, "frame, wall (with swap): %s => %.1f frames/s\n",
                to_string(wall).c_str(), wall.mean > 0 ? 1000.0 / wall.mean : 0.0);
  out += buf;
  auto line = [&](const char* what, const std::vector<double>& ms) {
    out += "frame, ";
    out += what;
    out += ": ";
    out += to_string(summarize(ms));
    out += '\n';
  };
  line("CPU (build + submit)", r.build_ms);
  if (!r.gpu_ms.empty()) line("GPU (GL_TIME_ELAPSED)", r.gpu_ms);
  line("waiting for the drawing (glFinish)", r.finish_ms);
  line("presenting (swap)", r.swap_ms);
  // Where the vertices and draw calls come from, the heaviest window first.
  std::vector<DrawListCost> lists = r.lists;
  std::stable_sort(lists.begin(), lists.end(), [](const DrawListCost& a, const DrawListCost& b) {
    return a.vertices > b.vertices;
  });
  DrawListCost total{"all", 0, 0, 0, 0};
  for (const DrawListCost& l : lists) {
    total.vertices += l.vertices;
    total.indices += l.indices;
    total.draws += l.draws;
    total.callbacks += l.callbacks;
  }
  lists.insert(lists.begin(), total);
  out += "last frame, by window: vertices, indices, ImGui draws, GL batches\n";
  for (const DrawListCost& l : lists) {
    std::snprintf(buf, sizeof buf, "  %6d %6d %4d %3d  %s\n", l.vertices, l.indices, l.draws,
                  l.callbacks, l.owner.c_str());
    out += buf;
  }
  return out;
}

}  // namespace banklab::gui
