// banklab validate: measure the validation corpus on the GPU and compare every access with
// analyze(). Agreement means the hardware counted exactly the predicted wavefronts and bank
// conflicts, for a kernel whose only instruction of the class was the measured one and whose
// bytes were verified. Anything else is printed in full, so it can be replayed with
// `banklab analyze --batch` and `banklab-probe`.
#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "app/cli/commands.hpp"
#include "app/cli/syntax.hpp"
#include "core/base/format.hpp"
#include "core/base/json_writer.hpp"
#include "core/model/analysis.hpp"
#include "core/validate/corpus.hpp"
#include "core/validate/model_match.hpp"
#include "kernels/gpu_measure.hpp"

namespace banklab::cli {
namespace {

struct Row {
  const CorpusEntry* entry = nullptr;
  int predicted_wavefronts = 0;
  int predicted_conflicts = 0;
  gpu::Measurement measured;
  ModelMatch match = ModelMatch::agree;
  std::string why;  // judge()'s sentence
};

// Tallies per group, in a stable order for the table.
struct Tally {
  int patterns = 0;
  int agree = 0;
  int mismatch = 0;
  int unmeasured = 0;
};

std::string group_of(const WarpAccess& a) {
  if (is_matrix_op(a.op)) return std::string(op_name(a.op));
  return std::string(op_name(a.op)) + " " + std::to_string(a.width) + " B";
}

std::string percent(int part, int whole) {
  return format("%.2f%%", whole ? 100.0 * part / whole : 0.0);
}

void append_table(std::string& out, std::string_view title, const std::map<std::string, Tally>& t) {
  char line[160];
  std::snprintf(line, sizeof line, "%-22.*s %8s %8s %9s %10s %10s\n",
                static_cast<int>(title.size()), title.data(), "patterns", "agree", "mismatch",
                "unmeasured", "agreement");
  out += line;
  Tally all;
  for (const auto& [name, x] : t) {
    std::snprintf(line, sizeof line, "%-22s %8d %8d %9d %10d %10s\n", name.c_str(), x.patterns,
                  x.agree, x.mismatch, x.unmeasured, percent(x.agree, x.patterns).c_str());
    out += line;
    all.patterns += x.patterns;
    all.agree += x.agree;
    all.mismatch += x.mismatch;
    all.unmeasured += x.unmeasured;
  }
  std::snprintf(line, sizeof line, "%-22s %8d %8d %9d %10d %10s\n\n", "all", all.patterns,
                all.agree, all.mismatch, all.unmeasured, percent(all.agree, all.patterns).c_str());
  out += line;
}

void append_row_text(std::string& out, const Row& r) {
  out += r.match == ModelMatch::disagree ? "MISMATCH" : "UNMEASURED";
  out += " [" + r.entry->family + "] " + r.entry->name + "\n";
  out += "  pattern:   " + to_string(r.entry->access) + "\n";
  out += "  predicted: " + std::to_string(r.predicted_wavefronts) + " wavefronts, " +
         std::to_string(r.predicted_conflicts) + " bank conflicts\n";
  if (r.match == ModelMatch::disagree) {
    out += "  measured:  " + std::to_string(r.measured.wavefronts) + " wavefronts, " +
           std::to_string(r.measured.bank_conflicts) + " bank conflicts, " +
           std::to_string(r.measured.instructions) + " instruction(s) of the class\n";
  } else {
    out += "  error:     " + r.why + "\n";
  }
}

void write_tallies(JsonWriter& w, const std::map<std::string, Tally>& t) {
  w.begin_array();
  for (const auto& [name, x] : t) {
    w.begin_object()
        .field("group", name)
        .field("patterns", x.patterns)
        .field("agree", x.agree)
        .field("mismatch", x.mismatch)
        .field("unmeasured", x.unmeasured)
        .end_object();
  }
  w.end_array();
}

void write_row(JsonWriter& w, const Row& r) {
  w.begin_object()
      .field("verdict", r.match == ModelMatch::disagree ? "mismatch" : "unmeasured")
      .field("family", r.entry->family)
      .field("name", r.entry->name)
      .field("pattern", to_string(r.entry->access));
  w.key("predicted")
      .begin_object()
      .field("wavefronts", r.predicted_wavefronts)
      .field("bank_conflicts", r.predicted_conflicts)
      .end_object();
  w.key("measured")
      .begin_object()
      .field("ok", r.measured.ok)
      .field("wavefronts", r.measured.wavefronts)
      .field("bank_conflicts", r.measured.bank_conflicts)
      .field("instructions", r.measured.instructions)
      .field("verified", r.measured.verified)
      .field("error", r.measured.error)
      .end_object();
  w.end_object();
}

struct ValidateOptions {
  std::int64_t count = 8000;  // random patterns after the fixed ones
  std::int64_t seed = 1;
  bool json = false;
};

Expected<ValidateOptions> read_options(const frontend::Args& args) {
  ValidateOptions o;
  return frontend::FlagReader<kValidate>(args)
      .integer("count", o.count, 0, 1'000'000)
      .integer("seed", o.seed, 0, INT64_MAX)
      .flag("json", o.json)
      .result(o);
}

}  // namespace

int run_validate(const frontend::Args& args) {
  const Expected<ValidateOptions> o = read_options(args);
  if (!o) return bad_input(o.error());
  const bool json = o->json;

  const gpu::MeasureSupport support = gpu::measure_support();
  // One line, the same words as every GPU command: "no CUDA driver ...", "no CUDA device ...".
  if (!support.ok) return failure(support.reason);

  const std::vector<CorpusEntry> corpus =
      validation_corpus({.random_count = static_cast<std::size_t>(o->count),
                         .seed = static_cast<std::uint64_t>(o->seed)});
  std::vector<WarpAccess> accesses;
  accesses.reserve(corpus.size());
  for (const CorpusEntry& e : corpus) accesses.push_back(e.access);

  std::fprintf(stderr, "banklab: measuring %zu patterns on %s\n", corpus.size(),
               support.device.name.c_str());
  const auto start = std::chrono::steady_clock::now();
  std::size_t last_report = 0;
  const auto progress = [&](std::size_t done, std::size_t total) {
    if (done - last_report >= 2000 || done == total) {
      std::fprintf(stderr, "banklab: measured %zu of %zu\n", done, total);
      last_report = done;
    }
  };
  const Expected<std::vector<gpu::Measurement>> measured = gpu::measure(accesses, progress);
  if (!measured) return failure("measurement failed: " + measured.error());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::vector<Row> rows(corpus.size());
  std::map<std::string, Tally> by_group, by_family;
  for (std::size_t i = 0; i < corpus.size(); ++i) {
    Row& r = rows[i];
    r.entry = &corpus[i];
    const Analysis a = analyze(corpus[i].access);
    r.predicted_wavefronts = a.wavefront_count();
    r.predicted_conflicts = a.bank_conflicts();
    r.measured = (*measured)[i];
    Judgement j = judge(r.predicted_wavefronts, r.predicted_conflicts, r.measured);
    r.match = j.match;
    r.why = std::move(j.message);
    for (Tally* t : {&by_group[group_of(corpus[i].access)], &by_family[corpus[i].family]}) {
      ++t->patterns;
      t->agree += r.match == ModelMatch::agree;
      t->mismatch += r.match == ModelMatch::disagree;
      t->unmeasured += r.match == ModelMatch::unmeasured;
    }
  }
  int disagreements = 0;
  for (const Row& r : rows) disagreements += r.match != ModelMatch::agree;

  std::string out;
  if (json) {
    JsonWriter w(out);
    w.begin_object()
        .field("device", support.device.name)
        .field("seed", o->seed)
        .field("random_count", o->count)
        .field("patterns", rows.size())
        .field("agree", static_cast<int>(rows.size()) - disagreements)
        .field("seconds", seconds, 6);
    w.key("by_op");
    write_tallies(w, by_group);
    w.key("by_family");
    write_tallies(w, by_family);
    w.key("disagreements").begin_array();
    for (const Row& r : rows) {
      if (r.match != ModelMatch::agree) write_row(w, r);
    }
    w.end_array().end_object();
    out += '\n';
  } else {
    char head[256];
    std::snprintf(head, sizeof head,
                  "%zu patterns (%zu fixed + %lld random, seed %lld) measured on %s in %.1f s\n\n",
                  rows.size(), rows.size() - static_cast<std::size_t>(o->count),
                  static_cast<long long>(o->count), static_cast<long long>(o->seed),
                  support.device.name.c_str(), seconds);
    out += head;
    append_table(out, "by op and width", by_group);
    append_table(out, "by family", by_family);
    for (const Row& r : rows) {
      if (r.match == ModelMatch::agree) continue;
      append_row_text(out, r);
    }
    out += disagreements == 0 ? "every pattern agrees with the model\n"
                              : std::to_string(disagreements) + " pattern(s) disagree\n";
  }
  print(out);
  return disagreements == 0 ? kExitOk : kExitFailure;
}

}  // namespace banklab::cli
