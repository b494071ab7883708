#include "args.hpp"

#include <algorithm>
#include <charconv>
#include <system_error>

namespace banklab::cli {
namespace {

const FlagSpec* find_flag(const CommandSyntax& syntax, std::string_view name) {
  auto it = std::find_if(syntax.flags.begin(), syntax.flags.end(),
                         [&](const FlagSpec& f) { return f.name == name; });
  return it == syntax.flags.end() ? nullptr : &*it;
}

Error error(std::string text) {
  return Error{std::move(text)};
}

// Built by appending: GCC 12 warns falsely (-Wrestrict) on "'" + std::string(...).
std::string quoted(std::string_view text) {
  std::string q(1, '\'');
  q += text;
  q += '\'';
  return q;
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

Expected<std::int64_t> Args::integer(std::string_view flag, std::int64_t fallback, std::int64_t min,
                                     std::int64_t max) const {
  const auto text = value(flag);
  if (!text) return fallback;
  return parse_integer(*text, "--" + std::string(flag), min, max);
}

Expected<std::int64_t> parse_integer(std::string_view text, std::string_view what, std::int64_t min,
                                     std::int64_t max) {
  std::int64_t number = 0;
  const char* end = text.data() + text.size();
  // from_chars rejects a leading '+'; accept it, since "+3" is a number to any reader.
  const char* begin = text.data() + (text.starts_with('+') ? 1 : 0);
  const auto [ptr, ec] = std::from_chars(begin, end, number);
  if (text.empty() || ec == std::errc::invalid_argument || ptr != end) {
    return error(std::string(what) + " expects a whole number, got " + quoted(text));
  }
  if (ec == std::errc::result_out_of_range || number < min || number > max) {
    return error(std::string(what) + " must be between " + std::to_string(min) + " and " +
                 std::to_string(max) + ", got " + std::string(text));
  }
  return number;
}

Expected<Args> parse_args(const CommandSyntax& syntax, std::span<const std::string_view> tokens) {
  Args args;
  args.command_ = syntax.command;
  const std::string see_help = " (see 'banklab " + std::string(syntax.command) + " --help')";
  bool flags_ended = false;

  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string_view token = tokens[i];
    if (flags_ended || !token.starts_with("-") || token == "-") {
      args.positionals_.emplace_back(token);
      continue;
    }
    if (token == "--") {
      flags_ended = true;
      continue;
    }
    if (token == "-h" || token == "--help") {
      args.help_ = true;
      continue;
    }
    if (!token.starts_with("--")) {
      return error("unknown option " + quoted(token) + " for '" + std::string(syntax.command) +
                   "': flags are spelled --name" + see_help);
    }

    const std::string_view body = token.substr(2);
    const std::size_t equals = body.find('=');
    const std::string_view name = body.substr(0, equals);
    const FlagSpec* spec = find_flag(syntax, name);
    if (spec == nullptr) {
      return error("unknown flag --" + std::string(name) + " for '" + std::string(syntax.command) +
                   "'" + see_help);
    }
    if (args.has(name) && std::ranges::find(syntax.repeatable, name) == syntax.repeatable.end()) {
      return error("--" + std::string(name) + " is given twice");
    }

    std::string value;
    if (!spec->takes_value()) {
      if (equals != std::string_view::npos) {
        return error("--" + std::string(name) + " is a switch and takes no value, got " +
                     quoted(body.substr(equals + 1)));
      }
    } else if (equals != std::string_view::npos) {
      value = body.substr(equals + 1);
      if (value.empty()) return error("missing value for --" + std::string(name));
    } else {
      // The value is the next word, unless there is none or it is another flag. A lone "-" or
      // a negative number is a value.
      if (i + 1 == tokens.size() || tokens[i + 1].starts_with("--")) {
        return error("missing value for --" + std::string(name) + " (expected --" +
                     std::string(name) + " " + std::string(spec->value_name) + ")");
      }
      value = tokens[++i];
    }
    args.flags_.emplace_back(std::string(name), std::move(value));
  }

  // With --help the command prints its usage and nothing else is checked.
  if (args.help_) return args;

  const auto count = static_cast<int>(args.positionals_.size());
  if (count > syntax.max_positionals) {
    const std::string& extra = args.positionals_[static_cast<std::size_t>(syntax.max_positionals)];
    if (syntax.max_positionals == 0) {
      return error("'" + std::string(syntax.command) + "' takes no arguments, got " +
                   quoted(extra) + see_help);
    }
    return error("unexpected argument " + quoted(extra) + " after " +
                 std::string(syntax.positional_name) + see_help);
  }
  if (count < syntax.min_positionals) {
    return error("'" + std::string(syntax.command) + "' needs " +
                 std::string(syntax.positional_name) + see_help);
  }
  return args;
}

}  // namespace banklab::cli
