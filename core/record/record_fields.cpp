#include "core/record/record_fields.hpp"

namespace banklab::gpu {

nlohmann::json parse_json_within_depth(std::string_view text, int max_depth) {
  using nlohmann::json;
  return json::parse(text.begin(), text.end(),
                     [max_depth](int depth, json::parse_event_t event, json&) {
                       // depth: the levels around the one that starts
                       if ((event == json::parse_event_t::object_start ||
                            event == json::parse_event_t::array_start) &&
                           depth >= max_depth) {
                         throw TooDeep{};
                       }
                       return true;
                     });
}

}  // namespace banklab::gpu
