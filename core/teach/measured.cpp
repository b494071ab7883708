#include "core/teach/measured.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "core/base/data_dir.hpp"
#include "core/base/file_read.hpp"
#include "core/base/format.hpp"
#include "core/model/dtype.hpp"
#include "core/model/hardware.hpp"
#include "core/record/recording.hpp"

namespace banklab {

namespace {

// The figures lessons quote, derived from a recording read and checked by the one codec
// (core/record/recording.hpp): the same fields the GPU window and `gpu-bench --replay` show.
Expected<Measurements> figures_of(const record::Recording& r, const std::string& file) {
  Measurements m;
  m.file = file;
  m.device = r.device.name;
  m.sm_count = r.device.sm_count;
  for (const record::SuiteReport& suite : r.suites) {
    const std::string dtype(dtype_name(suite.options.dtype));
    for (const record::VariantResult& v : suite.results) {
      if (v.role == record::VariantRole::roof) {
        if (suite.options.dtype == DType::fp32) m.copy_gbps = v.gbps;
        m.figures.push_back({dtype + "-copy", format("%.0f GB/s", v.gbps),
                             "the copy roof of the " + dtype + " run (bytes read plus written)"});
        continue;
      }
      m.figures.push_back({v.name, format("%.1f %%", 100 * v.fraction_of_copy),
                           v.tile + " transpose, share of the " + dtype + " run's copy roof"});
    }
  }
  m.sm_clock_mhz = r.sweep.report.sm_clock_mhz;
  m.figures.push_back({"sm-clock", format("%.0f MHz", m.sm_clock_mhz),
                       "the SM clock measured during the shared-memory-bound loop"});
  m.figures.push_back({"sm-count", std::to_string(m.sm_count), "the SMs of the " + m.device});
  const std::vector<record::PatternResult>& sweep = r.sweep.report.results;
  for (std::size_t i = 0; i < sweep.size(); ++i) {
    const int ways = static_cast<int>(std::lround(sweep[i].predicted_ratio));
    m.figures.push_back({"sweep-" + std::to_string(ways) + "way",
                         format("%.3f", sweep[i].cycles_per_access),
                         "clocks per warp read of " + r.sweep.labels[i] + " (" +
                             std::to_string(ways) + "-way) in the shared-memory-bound loop"});
  }
  // The checks (core/record/recording_check.hpp) hold the device's SMs and every clock to at
  // least 1; what a recording may lack and a lesson needs is the fp32 run.
  if (m.copy_gbps <= 0) {
    return Error{file +
                 ": not a BankLab recording with the lesson's figures: no fp32 copy roof "
                 "in its suites"};
  }
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
  const Expected<record::Recording> recording = record::parse_recording(text);
  if (!recording) return Error{file + ": " + recording.error()};
  return figures_of(*recording, file);
}

const Expected<Measurements>& recorded() {
  static const Expected<Measurements> figures = []() -> Expected<Measurements> {
    const Expected<std::filesystem::path> data = data_dir();
    if (!data) return Error{data.error()};
    const std::filesystem::path file = *data / kShippedRecording;
    const Expected<std::string> text =
        read_regular_file(file.string(), record::kMaxRecordingBytes, "shipped recording");
    if (!text) return Error{text.error()};
    return parse_measurements(*text, file.string());
  }();
  return figures;
}

}  // namespace banklab
