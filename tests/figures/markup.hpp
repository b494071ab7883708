#pragma once
// A small well-formedness check for what the figures write: the SVG (XML: one root, every start
// tag closed in order, attributes quoted, only the five named entities, nothing after the root)
// and the lesson deck (HTML: after its doctype, the same, with <meta> a void element, the
// script's text skipped and the arrows' entities allowed). Returns "" or the first problem.
#include <cctype>
#include <sstream>
#include <string>
#include <vector>

namespace banklab::test {

enum class Markup { xml, html };

inline std::string markup_problem(const std::string& text, Markup kind) {
  const bool html = kind == Markup::html;
  std::vector<std::string> open;
  std::size_t i = 0;
  bool seen_root = false;
  if (html) {
    if (!text.starts_with("<!DOCTYPE html>")) return "no doctype";
    i = text.find('>') + 1;
  } else if (text.starts_with("<?xml")) {
    i = text.find("?>") + 2;
  }
  while (i < text.size()) {
    if (text[i] != '<') {
      if (text[i] == '&') {
        const auto semi = text.find(';', i);
        const std::string entity = text.substr(i, semi - i + 1);
        const bool named = entity == "&amp;" || entity == "&lt;" || entity == "&gt;" ||
                           entity == "&quot;" || entity == "&apos;" ||
                           (html && (entity == "&larr;" || entity == "&rarr;"));
        if (!named) return "unknown entity at " + std::to_string(i);
      } else if (open.empty() && !std::isspace(static_cast<unsigned char>(text[i]))) {
        return "text outside the root at " + std::to_string(i);
      }
      ++i;
      continue;
    }
    const auto end = text.find('>', i);
    if (end == std::string::npos) return "unclosed tag at " + std::to_string(i);
    std::string tag = text.substr(i + 1, end - i - 1);
    i = end + 1;
    if (tag.starts_with('/')) {
      if (open.empty() || open.back() != tag.substr(1)) return "mismatched </" + tag + ">";
      open.pop_back();
      continue;
    }
    const bool empty = tag.ends_with('/');
    if (empty) tag.pop_back();
    std::istringstream words(tag);
    std::string name;
    words >> name;
    // Attributes: name="value" with no '<' or stray quote inside.
    std::string rest = tag.substr(name.size());
    while (true) {
      const auto eq = rest.find('=');
      if (eq == std::string::npos) break;
      if (eq + 1 >= rest.size() || rest[eq + 1] != '"') return "unquoted attribute in <" + name;
      const auto close = rest.find('"', eq + 2);
      if (close == std::string::npos) return "unterminated attribute in <" + name;
      if (rest.substr(eq + 2, close - eq - 2).find('<') != std::string::npos) {
        return "'<' in an attribute of <" + name;
      }
      rest = rest.substr(close + 1);
    }
    if (open.empty() && seen_root) return "a second root <" + name + ">";
    seen_root = true;
    if (html && name == "script") {  // its text is code, with '<' in it
      i = text.find("</script>", i);
      if (i == std::string::npos) return "unclosed <script>";
      i += 9;
      continue;
    }
    if (!empty && !(html && name == "meta")) open.push_back(name);
  }
  if (!open.empty()) return "<" + open.back() + "> is never closed";
  return seen_root ? "" : "no root element";
}

}  // namespace banklab::test
