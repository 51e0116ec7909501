#include "redist/sim/platform_tags.hpp"

#include <cctype>

namespace redist::sim {
namespace {

bool xml_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool xml_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' || c == '.' || c == ':';
}

// Reads the attributes of the tag whose name ends before `at` into `tag`; returns where they end.
std::size_t read_attributes(const std::string& text, std::size_t at, XmlTag& tag) {
  for (;;) {
    std::size_t i = at;
    while (i < text.size() && xml_space(text[i])) ++i;
    const std::size_t name_start = i;
    while (i < text.size() && xml_name_char(text[i])) ++i;
    if (i == name_start) return i;
    std::string name = text.substr(name_start, i - name_start);
    while (i < text.size() && xml_space(text[i])) ++i;
    if (i >= text.size() || text[i] != '=') return i;
    ++i;
    while (i < text.size() && xml_space(text[i])) ++i;
    if (i >= text.size() || (text[i] != '"' && text[i] != '\'')) return i;
    const std::size_t close = text.find(text[i], i + 1);
    if (close == std::string::npos) return i;
    tag.attributes.push_back({std::move(name), text.substr(i + 1, close - i - 1), i + 1});
    at = close + 1;
  }
}

}  // namespace

const XmlAttribute* XmlTag::attribute(std::string_view wanted) const {
  for (const XmlAttribute& a : attributes) {
    if (a.name == wanted) return &a;
  }
  return nullptr;
}

std::vector<XmlTag> platform_tags(const std::string& text) {
  std::vector<XmlTag> out;
  for (std::size_t at = text.find('<'); at != std::string::npos; at = text.find('<', at)) {
    if (text.compare(at, 4, "<!--") == 0) {
      const std::size_t close = text.find("-->", at);
      if (close == std::string::npos) break;
      at = close + 3;
      continue;
    }
    if (at + 1 < text.size() && (text[at + 1] == '?' || text[at + 1] == '!')) {
      const std::size_t close = text.find('>', at);
      if (close == std::string::npos) break;
      at = close + 1;
      continue;
    }
    XmlTag tag;
    tag.begin = at;
    tag.closing = at + 1 < text.size() && text[at + 1] == '/';
    std::size_t i = at + (tag.closing ? 2 : 1);
    const std::size_t name_start = i;
    while (i < text.size() && xml_name_char(text[i])) ++i;
    tag.name = text.substr(name_start, i - name_start);
    const std::size_t close = text.find('>', read_attributes(text, i, tag));
    if (close == std::string::npos) break;
    tag.end = close + 1;
    tag.self_closing = text[close - 1] == '/';
    out.push_back(std::move(tag));
    at = close + 1;
  }
  return out;
}

}  // namespace redist::sim
