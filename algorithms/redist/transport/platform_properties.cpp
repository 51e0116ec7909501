#include "redist/transport/platform_properties.hpp"

namespace redist {

std::string_view property_holder_name(PropertyHolder holder) {
  switch (holder) {
    case PropertyHolder::Host: return "host";
    case PropertyHolder::Link: return "link";
    case PropertyHolder::RootZone: return "root zone";
  }
  return "?";
}

const PlatformProperty* find_platform_property(std::string_view name) {
  for (const auto& property : kPlatformProperties) {
    if (property.name == name) return &property;
  }
  return nullptr;
}

bool in_property_namespace(std::string_view name) {
  const auto dot = name.find('.');
  if (dot == std::string_view::npos) return false;
  for (const auto& property : kPlatformProperties) {
    if (property.name.substr(0, property.name.find('.') + 1) == name.substr(0, dot + 1)) return true;
  }
  return false;
}

std::string platform_properties_markdown() {
  std::string text = "| property | unit | declared on | read by | meaning |\n|---|---|---|---|---|\n";
  for (const auto& p : kPlatformProperties) {
    text += "| `" + std::string(p.name) + "` | " + std::string(p.unit) + " | " + std::string(property_holder_name(p.holder)) +
            " | " + (p.reader.empty() ? std::string("none (informative)") : "`" + std::string(p.reader) + "`") + " | " +
            std::string(p.meaning) + " |\n";
  }
  return text;
}

}  // namespace redist
