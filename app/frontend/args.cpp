#include "app/frontend/args.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>

namespace banklab::frontend {
namespace {

Error error(std::string text) {
  return Error{std::move(text)};
}

// CLI11 group names are one line: the groups are named "0", "1", ... in declaration order
// (syntax.groups, then syntax.flags), and the formatter prints the titles they stand for.
std::vector<std::string_view> group_titles(const CommandSyntax& syntax) {
  std::vector<std::string_view> titles;
  for (const FlagGroup& g : syntax.groups) titles.push_back(g.title);
  titles.push_back(syntax.flags_title.empty() ? "Flags:" : syntax.flags_title);
  return titles;
}

// CLI11's formatter, laid out as BankLab's usage texts always were: the usage line(s), a
// paragraph, then every group of flags under its own heading, each flag as "--name VALUE" and
// its help aligned in one column, then the footer.
class Formatter : public CLI::Formatter {
 public:
  explicit Formatter(const CommandSyntax& syntax) : syntax_(syntax) { column_width(20); }

  std::string make_help(const CLI::App* app, std::string, CLI::AppFormatMode) const override {
    std::string out = syntax_.usage.empty() ? generated_usage() : std::string(syntax_.usage);
    if (!syntax_.description.empty()) {
      out += '\n';
      out += syntax_.description;
    }
    const std::vector<std::string_view> titles = group_titles(syntax_);
    for (std::size_t i = 0; i < titles.size(); ++i) {
      const auto options = app->get_options([&](const CLI::Option* o) {
        return o->get_group() == std::to_string(i) && o->nonpositional();
      });
      if (!options.empty()) out += make_group(std::string(titles[i]), false, options);
    }
    if (!syntax_.footer.empty()) {
      out += '\n';
      out += syntax_.footer;
    }
    return out;
  }

  std::string make_group(std::string group, bool,
                         std::vector<const CLI::Option*> opts) const override {
    std::string out = "\n" + group + "\n";
    for (const CLI::Option* o : opts) out += make_option(o, false);
    return out;
  }
  std::string make_option_name(const CLI::Option* o, bool) const override {
    return o->get_name(false, true);  // "-o,--output" where a flag has a short name
  }
  std::string make_option_opts(const CLI::Option* o) const override {
    return o->get_type_name().empty() ? std::string() : " " + o->get_type_name();
  }
  std::string make_option_desc(const CLI::Option* o) const override { return o->get_description(); }

 private:
  // "usage: banklab explain [PRESET] [--json]"
  std::string generated_usage() const {
    std::string out = "usage: " + std::string(syntax_.program);
    if (!syntax_.command.empty()) out += " " + std::string(syntax_.command);
    if (syntax_.max_positionals > 0) {
      const std::string name(syntax_.positional_name);
      out += syntax_.min_positionals > 0 ? " " + name : " [" + name + "]";
    }
    const auto add = [&](const FlagSpec& f) {
      out += " [--" + std::string(f.name);
      if (f.takes_value()) out += " " + std::string(f.value_name);
      out += "]";
    };
    for (const FlagGroup& g : syntax_.groups) std::for_each(g.flags.begin(), g.flags.end(), add);
    std::for_each(syntax_.flags.begin(), syntax_.flags.end(), add);
    return out + "\n";
  }

  const CommandSyntax& syntax_;
};

// One CLI::App for the syntax. Every flag takes at most one value and may be repeated, so that
// a missing value, a repeated flag and a value given to a switch reach the checks below, which
// word them; unknown flags are left over ("extras") for the same reason.
void declare(CLI::App& app, const CommandSyntax& syntax, std::vector<std::string>& positionals) {
  app.set_help_flag();
  app.allow_extras();
  app.add_flag("-h,--help")->group("help");
  const auto add = [&](const FlagSpec& f, std::size_t group) {
    const std::string name = "--" + std::string(f.name);
    const std::string names = f.short_name != 0 ? std::string{'-', f.short_name, ','} + name : name;
    // A flag in two groups (gpu-bench's --dtype: the suite's and the scenario's) is one flag,
    // listed where it first appears.
    if (app.get_option_no_throw(name) != nullptr) return;
    CLI::Option* o = f.takes_value() ? app.add_option(names)->expected(0, 1) : app.add_flag(names);
    o->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
        ->type_name(std::string(f.value_name))
        ->description(std::string(f.help))
        ->group(std::to_string(group));
  };
  for (std::size_t g = 0; g < syntax.groups.size(); ++g) {
    for (const FlagSpec& f : syntax.groups[g].flags) add(f, g);
  }
  for (const FlagSpec& f : syntax.flags) add(f, syntax.groups.size());
  app.add_option("positionals", positionals);
}

std::string invocation(const CommandSyntax& syntax) {
  std::string name(syntax.program);
  if (!syntax.command.empty()) name += " " + std::string(syntax.command);
  return name;
}

// The word an error uses for the command: 'analyze', or 'banklab-gui' for a whole program.
std::string command_word(const CommandSyntax& syntax) {
  return "'" + std::string(syntax.command.empty() ? syntax.program : syntax.command) + "'";
}

}  // namespace

bool Args::has(std::string_view flag) const {
  return std::any_of(flags_.begin(), flags_.end(), [&](const auto& f) { return f.first == flag; });
}

std::optional<std::string_view> Args::value(std::string_view flag) const {
  for (const auto& [name, value] : flags_) {
    if (name == flag) return std::string_view(value);
  }
  return std::nullopt;
}

std::vector<std::string_view> Args::values(std::string_view flag) const {
  std::vector<std::string_view> out;
  for (const auto& [name, value] : flags_)
    if (name == flag) out.emplace_back(value);
  return out;
}

std::vector<std::string_view> Args::given() const {
  std::vector<std::string_view> names;
  names.reserve(flags_.size());
  for (const auto& f : flags_) names.emplace_back(f.first);
  return names;
}

bool Args::declares(std::string_view flag) const {
  return syntax_ != nullptr && find_flag(*syntax_, flag) != nullptr;
}

std::string help_text(const CommandSyntax& syntax) {
  CLI::App app;
  std::vector<std::string> positionals;
  declare(app, syntax, positionals);
  app.formatter(std::make_shared<Formatter>(syntax));
  return app.help();
}

Expected<Args> parse_args(const CommandSyntax& syntax, std::span<const std::string_view> tokens) {
  CLI::App app;
  Args args;
  args.syntax_ = &syntax;
  args.command_ = syntax.command;
  declare(app, syntax, args.positionals_);
  const std::string see_help = " (see '" + invocation(syntax) + " --help')";

  std::vector<std::string> words(tokens.rbegin(), tokens.rend());  // CLI11 takes them reversed
  try {
    app.parse(words);
  } catch (const CLI::ParseError& e) {
    return error(std::string(e.what()) + see_help);
  }
  // With --help the command prints its usage and nothing else is checked.
  args.help_ = app.get_option("--help")->count() > 0;
  if (args.help_) return args;

  for (const std::string& extra : app.remaining()) {
    if (extra == "--") continue;
    if (!extra.starts_with("--")) {
      return error("unknown option " + quote(extra) + " for " + command_word(syntax) +
                   ": flags are spelled --name" + see_help);
    }
    const std::string_view name = std::string_view(extra).substr(2, extra.find('=') - 2);
    return error("unknown flag --" + shown(name) + " for " + command_word(syntax) + see_help);
  }

  for (const CLI::Option* o : app.parse_order()) {
    if (o->get_positional()) continue;
    const std::string name = o->get_name().substr(2);
    // A repeatable flag's k-th time takes its k-th value; it needs one value each time.
    const std::size_t time = args.values(name).size();
    if (time > 0 && std::find(syntax.repeatable.begin(), syntax.repeatable.end(), name) ==
                        syntax.repeatable.end()) {
      return error("--" + name + " is given twice");
    }
    const FlagSpec* spec = find_flag(syntax, name);
    const std::vector<std::string>& results = o->results();
    if (spec->takes_value()) {
      // "--pad" with nothing after it, or before another flag, and "--pad=": no value, or "".
      const auto times = std::count(app.parse_order().begin(), app.parse_order().end(), o);
      if (results.size() != static_cast<std::size_t>(times) || results[time].empty()) {
        return error("missing value for --" + name + " (expected --" + name + " " +
                     std::string(spec->value_name) + ")");
      }
      args.flags_.emplace_back(name, results[time]);
    } else {
      if (results.size() == 1 && results.front() != "true") {
        return error("--" + name + " is a switch and takes no value, got " +
                     quote(results.front()));
      }
      args.flags_.emplace_back(name, "");
    }
  }

  const auto count = static_cast<int>(args.positionals_.size());
  if (count > syntax.max_positionals) {
    const std::string& extra = args.positionals_[static_cast<std::size_t>(syntax.max_positionals)];
    if (syntax.max_positionals == 0) {
      return error(command_word(syntax) + " takes no arguments, got " + quote(extra) + see_help);
    }
    return error("unexpected argument " + quote(extra) + " after " +
                 std::string(syntax.positional_name) + see_help);
  }
  if (count < syntax.min_positionals) {
    return error(command_word(syntax) + " needs " + std::string(syntax.positional_name) + see_help);
  }
  return args;
}

}  // namespace banklab::frontend
