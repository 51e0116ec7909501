#include "redist/layout/layout.hpp"

namespace redist {
namespace {

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};

}  // namespace

Index Layout::size() const {
  return std::visit([](const auto& l) { return l.size(); }, layout_);
}

Index Layout::processors() const {
  return std::visit(Overloaded{[](const BlockCyclic& l) { return l.procs(); },
                               [](const MultiDimLayout& l) { return l.processors(); },
                               [](const TwoLevelLayout& l) { return l.procs(); }},
                    layout_);
}

Index Layout::owner(Index g) const {
  return std::visit(Overloaded{[g](const BlockCyclic& l) { return l.owner(g); },
                               [g](const MultiDimLayout& l) { return l.owner(l.coords_of_linear(g)); },
                               [g](const TwoLevelLayout& l) { return l.owner(g); }},
                    layout_);
}

Index Layout::local_offset(Index g) const {
  return std::visit(Overloaded{[g](const BlockCyclic& l) { return l.local_index(g); },
                               [g](const MultiDimLayout& l) { return l.local_offset(l.coords_of_linear(g)); },
                               [g](const TwoLevelLayout& l) { return l.local_index(g); }},
                    layout_);
}

Index Layout::global_index(Index p, Index local) const {
  return std::visit(Overloaded{[=](const BlockCyclic& l) { return l.global_index(p, local); },
                               [=](const MultiDimLayout& l) { return l.linear_index(l.global_coords(p, local)); },
                               [=](const TwoLevelLayout& l) { return l.global_index(p, local); }},
                    layout_);
}

bool operator==(const Layout& a, const Layout& b) {
  return std::visit(
      Overloaded{[](const BlockCyclic& x, const BlockCyclic& y) { return x == y; },
                 [](const MultiDimLayout& x, const MultiDimLayout& y) {
                   if (x.rank() != y.rank() || x.storage() != y.storage()) return false;
                   for (std::size_t d = 0; d < x.rank(); ++d) {
                     if (x.dim(d).is_distributed() != y.dim(d).is_distributed() || !(x.dim(d).layout() == y.dim(d).layout())) {
                       return false;
                     }
                   }
                   return true;
                 },
                 [](const TwoLevelLayout& x, const TwoLevelLayout& y) {
                   return x.size() == y.size() && x.stride() == y.stride() && x.offset() == y.offset() &&
                          x.block_size() == y.block_size() && x.procs() == y.procs();
                 },
                 [](const auto&, const auto&) { return false; }},
      a.layout_, b.layout_);
}

Index Layout::local_size(Index p) const {
  return std::visit([p](const auto& l) { return l.local_size(p); }, layout_);
}

}  // namespace redist
