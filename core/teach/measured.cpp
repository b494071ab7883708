#include "core/teach/measured.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/base/data_dir.hpp"
#include "core/base/file_read.hpp"
#include "core/base/format.hpp"
#include "core/model/hardware.hpp"

namespace banklab {

namespace {

using nlohmann::json;

// The recording's layout (app/frontend/gpu_recording.cpp writes it): device.sm_count;
// suites[] of {dtype, results[] of {name, role, tile, gbps, fraction_of_copy}}; sweep of
// {measured_sm_clock_mhz, patterns[] of {label, predicted_ratio, cycles_per_access}}.
Measurements read(const json& root, const std::string& file) {
  Measurements m;
  m.file = file;
  m.device = root.at("device").at("name").get<std::string>();
  m.sm_count = root.at("device").at("sm_count").get<int>();
  for (const json& suite : root.at("suites")) {
    const std::string dtype = suite.at("dtype").get<std::string>();
    for (const json& r : suite.at("results")) {
      const std::string name = r.at("name").get<std::string>();
      const double gbps = r.at("gbps").get<double>();
      if (r.at("role").get<std::string>() == "roof") {
        if (dtype == "fp32") m.copy_gbps = gbps;
        m.figures.push_back({dtype + "-copy", format("%.0f GB/s", gbps),
                             "the copy roof of the " + dtype + " run (bytes read plus written)"});
        continue;
      }
      m.figures.push_back({name, format("%.1f %%", 100 * r.at("fraction_of_copy").get<double>()),
                           r.at("tile").get<std::string>() + " transpose, share of the " + dtype +
                               " run's copy roof"});
    }
  }
  const json& sweep = root.at("sweep");
  m.sm_clock_mhz = sweep.at("measured_sm_clock_mhz").get<double>();
  m.figures.push_back({"sm-clock", format("%.0f MHz", m.sm_clock_mhz),
                       "the SM clock measured during the shared-memory-bound loop"});
  m.figures.push_back({"sm-count", std::to_string(m.sm_count), "the SMs of the " + m.device});
  for (const json& p : sweep.at("patterns")) {
    const int ways = static_cast<int>(std::lround(p.at("predicted_ratio").get<double>()));
    m.figures.push_back({"sweep-" + std::to_string(ways) + "way",
                         format("%.3f", p.at("cycles_per_access").get<double>()),
                         "clocks per warp read of " + p.at("label").get<std::string>() + " (" +
                             std::to_string(ways) + "-way) in the shared-memory-bound loop"});
  }
  if (m.copy_gbps <= 0) throw std::runtime_error("no fp32 copy roof in its suites");
  if (m.sm_count <= 0 || m.sm_clock_mhz <= 0) throw std::runtime_error("no SM count or clock");
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
    return read(json::parse(text), file);
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
