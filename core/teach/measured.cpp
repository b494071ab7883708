#include "core/teach/measured.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/base/data_dir.hpp"
#include "core/base/file_read.hpp"
#include "core/base/format.hpp"
#include "core/base/json_fields.hpp"
#include "core/model/hardware.hpp"

namespace banklab {

namespace {

// The part of a recording that lessons quote, read through the recording's own reader
// (core/base/json_fields.hpp, which app/frontend/gpu_recording.cpp's codec reads the whole
// recording with): these keys are a subset of that codec's lists, named as it writes them. The
// recording's own structures live with the GPU library (kernels/), which core does not see.
struct RecordedDevice {
  std::string name;
  int sm_count = 0;
};
struct RecordedVariant {
  std::string name, role, tile;
  double gbps = 0, fraction_of_copy = 0;
};
struct RecordedSuite {
  std::string dtype;
  std::vector<RecordedVariant> results;
};
struct RecordedPattern {
  std::string label;
  double predicted_ratio = 0, cycles_per_access = 0;
};
struct RecordedSweep {
  double sm_clock_mhz = 0;
  std::vector<RecordedPattern> patterns;
};
struct RecordedFigures {
  RecordedDevice device;
  std::vector<RecordedSuite> suites;
  RecordedSweep sweep;
};

template <class F>
void fields(F& f, RecordedDevice& d) {
  f("name", d.name);
  f("sm_count", d.sm_count);
}
template <class F>
void fields(F& f, RecordedVariant& v) {
  f("name", v.name);
  f("role", v.role);
  f("tile", v.tile);
  f("gbps", v.gbps);
  f("fraction_of_copy", v.fraction_of_copy);
}
template <class F>
void fields(F& f, RecordedSuite& s) {
  f("dtype", s.dtype);
  f.list("results", s.results);
}
template <class F>
void fields(F& f, RecordedPattern& p) {
  f("label", p.label);
  f("predicted_ratio", p.predicted_ratio);
  f("cycles_per_access", p.cycles_per_access);
}
template <class F>
void fields(F& f, RecordedSweep& s) {
  f("measured_sm_clock_mhz", s.sm_clock_mhz);
  f.list("patterns", s.patterns);
}
template <class F>
void fields(F& f, RecordedFigures& r) {
  f.object("device", r.device);
  f.list("suites", r.suites);
  f.object("sweep", r.sweep);
}

Measurements figures_of(const RecordedFigures& r, const std::string& file) {
  Measurements m;
  m.file = file;
  m.device = r.device.name;
  m.sm_count = r.device.sm_count;
  for (const RecordedSuite& suite : r.suites) {
    for (const RecordedVariant& v : suite.results) {
      if (v.role == "roof") {
        if (suite.dtype == "fp32") m.copy_gbps = v.gbps;
        m.figures.push_back(
            {suite.dtype + "-copy", format("%.0f GB/s", v.gbps),
             "the copy roof of the " + suite.dtype + " run (bytes read plus written)"});
        continue;
      }
      m.figures.push_back(
          {v.name, format("%.1f %%", 100 * v.fraction_of_copy),
           v.tile + " transpose, share of the " + suite.dtype + " run's copy roof"});
    }
  }
  m.sm_clock_mhz = r.sweep.sm_clock_mhz;
  m.figures.push_back({"sm-clock", format("%.0f MHz", m.sm_clock_mhz),
                       "the SM clock measured during the shared-memory-bound loop"});
  m.figures.push_back({"sm-count", std::to_string(m.sm_count), "the SMs of the " + m.device});
  for (const RecordedPattern& p : r.sweep.patterns) {
    const int ways = static_cast<int>(std::lround(p.predicted_ratio));
    m.figures.push_back({"sweep-" + std::to_string(ways) + "way",
                         format("%.3f", p.cycles_per_access),
                         "clocks per warp read of " + p.label + " (" + std::to_string(ways) +
                             "-way) in the shared-memory-bound loop"});
  }
  if (m.copy_gbps <= 0) throw JsonFieldError("no fp32 copy roof in its suites");
  if (m.sm_count <= 0 || m.sm_clock_mhz <= 0) throw JsonFieldError("no SM count or clock");
  return m;
}

}  // namespace

const MeasuredFigure* Measurements::find(std::string_view key) const {
  const auto it = std::find_if(figures.begin(), figures.end(),
                               [&](const MeasuredFigure& f) { return f.key == key; });
  return it == figures.end() ? nullptr : &*it;
}

double Measurements::shared_tbps() const {
  return sm_count * double{kWavefrontBytes} * sm_clock_mhz * 1e6 / 1e12;
}

Expected<Measurements> parse_measurements(std::string_view text, const std::string& file) {
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    JsonFieldReader f(j, "recording");
    RecordedFigures r;
    fields(f, r);
    return figures_of(r, file);
  } catch (const std::exception& e) {
    return Error{file + ": not a BankLab recording with the lesson's figures: " + e.what()};
  }
}

const Expected<Measurements>& recorded() {
  static const Expected<Measurements> figures = []() -> Expected<Measurements> {
    const Expected<std::filesystem::path> data = data_dir();
    if (!data) return Error{data.error()};
    const std::filesystem::path file = *data / kShippedRecording;
    const Expected<std::string> text =
        read_regular_file(file.string(), kMaxShippedRecordingBytes, "shipped recording");
    if (!text) return Error{text.error()};
    return parse_measurements(*text, file.string());
  }();
  return figures;
}

}  // namespace banklab
