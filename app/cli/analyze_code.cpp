#include "app/cli/analyze_code.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "app/cli/commands.hpp"
#include "app/cli/syntax.hpp"
#include "app/cli/text_output.hpp"
#include "app/frontend/code_flags.hpp"
#include "core/banklab.hpp"

namespace banklab::cli {
namespace {

// The command's flag names, checked against its syntax when compiled (args.hpp).
using Flag = frontend::FlagName<kAnalyze>;

// The flags the code form takes; any other scenario, raw or batch flag is an error.
constexpr Flag kAllowed[] = {"decl", "expr", "block", "warp", "let", "smem", "op", "json"};

struct CodeOptions {
  std::string decl;
  std::string expr;
  KernelParams params;
  bool json = false;
};

Expected<CodeOptions> read_options(const frontend::Args& args) {
  CodeOptions o;
  Expected<KernelParams> params = frontend::read_code_params(args);
  if (!params) return Error{params.error()};
  o.params = std::move(*params);
  return frontend::FlagReader<kAnalyze>(args)
      .text("decl", o.decl)
      .text("expr", o.expr)
      .flag("json", o.json)
      .result(o);
}

// Stderr: "banklab: --expr:1:19: error: ..." and the line with a caret; with --json also the
// error object on stdout, as analyze does for every bad input.
int reject(bool json, std::string_view message, std::string_view display) {
  if (json) {
    std::string out;
    append_json_error(out, {{Severity::error, "code", std::string(message), -1}});
    out += '\n';
    print(out);
  }
  const int status = bad_input(message);
  std::fputs(display.data(), stderr);
  return status;
}

// "lane  threadIdx  indices  byte", the code evaluated for each lane of the warp.
void append_code_table(std::string& out, const KernelCode& code) {
  append_format(out, "\n%s, evaluated per lane of warp %d:\n", code.access_text.c_str(), code.warp);
  out += "lane  threadIdx     indices              byte\n";
  for (int l = 0; l < kWarpSize; ++l) {
    const LaneCode& lane = code.lanes[static_cast<std::size_t>(l)];
    if (!lane.active) {
      append_format(out, "%4d  (takes no part)\n", l);
      continue;
    }
    std::string indices;
    for (std::int64_t i : lane.indices) append_format(indices, "[%lld]", static_cast<long long>(i));
    const std::string thread = format("%d,%d,%d", lane.thread[0], lane.thread[1], lane.thread[2]);
    append_format(out, "%4d  %-13s %-20s %lld\n", l, thread.c_str(), indices.c_str(),
                  static_cast<long long>(lane.byte));
  }
}

}  // namespace

int run_analyze_code(const frontend::Args& args) {
  for (std::string_view flag : args.given()) {
    if (std::find(std::begin(kAllowed), std::end(kAllowed), flag) == std::end(kAllowed)) {
      return bad_input("--" + std::string(flag) +
                       " cannot be combined with --decl/--expr: the "
                       "code gives the array and the access");
    }
  }
  if (!args.has(Flag("decl")) || !args.has(Flag("expr"))) {
    return bad_input(
        "the code form needs both --decl (the __shared__ declaration) and --expr "
        "(the access)");
  }
  const Expected<CodeOptions> o = read_options(args);
  if (!o) return reject(args.has(Flag("json")), o.error(), "");
  const KernelParams& params = o->params;
  const CodeSource sources[] = {{"--decl", o->decl}, {"--expr", o->expr}};
  const CodeResult r = evaluate_code(sources, params);
  if (r.error) {
    const std::string text = format_code_error(*r.error, sources);
    const std::size_t newline = text.find('\n');
    return reject(o->json, text.substr(0, newline), text.substr(newline + 1));
  }
  const KernelCode& code = *r.code;
  const Scenario& s = code.scenario;
  const Study studied = study(s);
  const Evaluation& e = studied.evaluation;
  if (!e.ok()) return reject(o->json, first_error(e.diagnostics), "");
  const Explanation& x = studied.explanation;
  std::string out;
  if (o->json) {
    append_json(out, studied);
    out.pop_back();  // the object's '}': the code's evaluation joins it
    out += ",\"code\":";
    append_json(out, code);
    out += "}\n";
  } else {
    const auto& b = params.block;
    std::string decl = code.array.type + " " + code.array.name;
    for (std::int64_t d : code.array.dims) append_format(decl, "[%lld]", static_cast<long long>(d));
    std::string heading = format("%s on __shared__ %s: %s", code.access_text.c_str(), decl.c_str(),
                                 std::string(op_name(s.op)).c_str());
    if (!is_matrix_op(s.op)) append_format(heading, " %d B per lane", s.effective_width());
    append_format(heading, ", block %dx%dx%d, warp %d of %d%s", b[0], b[1], b[2], code.warp,
                  code.warp_count, params.warp == kAllWarps ? " (the worst)" : "");
    append_report(out, heading, *e.analysis, nullptr, nullptr, e.diagnostics, x);
    append_code_table(out, code);
  }
  print(out);
  return kExitOk;
}

}  // namespace banklab::cli
