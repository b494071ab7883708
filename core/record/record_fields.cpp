#include "core/record/record_fields.hpp"

namespace banklab::record {
namespace {

struct TooDeep {};

}  // namespace

FieldReader open_record(const nlohmann::json& j, const RecordFormat& f) {
  if (!j.is_object() || !j.contains("format") || !j["format"].is_string() ||
      j["format"].get<std::string>() != f.format) {
    throw JsonFieldError("it is JSON, but not a BankLab " + std::string(f.what) +
                         " (no \"format\": \"" + std::string(f.format) + "\")");
  }
  FieldReader reader(j, std::string(f.path));
  int version = 0;
  reader("version", version);
  if (version != f.version) {
    throw JsonFieldError("it is a " + std::string(f.what) + " of format version " +
                         std::to_string(version) + "; this BankLab reads version " +
                         std::to_string(f.version));
  }
  return reader;
}

Expected<nlohmann::json> parse_record_json(std::string_view text, const RecordFormat& f) {
  using nlohmann::json;
  const std::string not_one = "not a BankLab " + std::string(f.what) + ": ";
  try {
    // Refused as soon as it nests deeper than the format can, before the deeper part is built.
    return json::parse(text.begin(), text.end(), [&f](int depth, json::parse_event_t event, json&) {
      // depth: the levels around the one that starts
      if ((event == json::parse_event_t::object_start ||
           event == json::parse_event_t::array_start) &&
          depth >= f.max_depth) {
        throw TooDeep{};
      }
      return true;
    });
  } catch (const TooDeep&) {
    return Error{not_one + "its JSON nests deeper than " + std::to_string(f.max_depth) + " levels"};
  } catch (const json::parse_error& e) {
    return Error{not_one + "not valid JSON (" + e.what() + ")"};
  }
}

}  // namespace banklab::record
