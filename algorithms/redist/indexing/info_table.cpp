#include "redist/indexing/info_table.hpp"

namespace redist {

Index InfoTable::entries() const {
  Index total = 0;
  for (const auto& message : messages) total += static_cast<Index>(message.classes.size());
  return total;
}

RunList InfoTable::pieces(const TableMessage& message) const {
  std::size_t count = 0;
  for (const TableClass& c : message.classes) {
    count += shape == ClassShape::Contiguous ? 1 : static_cast<std::size_t>(ceil_div(c.size, chunk));
  }
  RunList out;
  out.reserve(count);
  for (const TableClass& c : message.classes) {
    if (shape == ClassShape::Contiguous) {
      out.push_back({c.first, c.size});
      continue;
    }
    for (Index offset = 0; offset < c.size; offset += chunk) {
      out.push_back({c.first + (offset / chunk) * stride, chunk});
    }
  }
  return out;
}

}  // namespace redist
