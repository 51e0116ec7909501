#include "redist/schedule/max_weight_matching.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <stdexcept>
#include <string>
#include <utility>

#include "redist/core/checks.hpp"

namespace redist {
namespace {

constexpr Index kNone = -1;
constexpr Index kInfinity = std::numeric_limits<Index>::max();
// Potentials and weights stay below these bounds so that no path cost can overflow 64 bits.
constexpr Index kPotentialLimit = Index{1} << 58;
constexpr Index kWeightBudget = Index{1} << 58;

// A vector indexed by 64-bit vertex or arc numbers.
template <class T>
class Slots {
 public:
  Slots() = default;
  Slots(Index size, T value) : data_(static_cast<std::size_t>(size), value) {}
  T& operator[](Index i) { return data_[static_cast<std::size_t>(i)]; }
  const T& operator[](Index i) const { return data_[static_cast<std::size_t>(i)]; }
  void assign(Index size, T value) { data_.assign(static_cast<std::size_t>(size), value); }
  void push_back(T value) { data_.push_back(value); }
  void pop_back() { data_.pop_back(); }
  void clear() { data_.clear(); }
  T& back() { return data_.back(); }
  bool empty() const { return data_.empty(); }
  Index size() const { return static_cast<Index>(data_.size()); }

 private:
  std::vector<T> data_;
};

struct Arc {
  Index to;    // right vertex of the doubled graph
  Index cost;  // non-negative
  Index edge;  // index of the caller's edge, or kNone for mirror and dummy arcs
};

// The left adjacency of the doubled graph in compressed rows: the arcs of left vertex l are
// arcs[first[l] .. first[l + 1]).
struct ArcGraph {
  Index n = 0;  // vertices on each side
  Slots<Index> first;
  Slots<Arc> arcs;
};

// The doubled graph of the header, or only its real half when `mirror` is false. Arcs keep the
// order of `edges`, which is what breaks ties.
ArcGraph doubled_graph(std::span<const BipartiteEdge> edges, Index L, Index R, Index W,
                       const std::vector<bool>& cover_left, const std::vector<bool>& cover_right, bool mirror) {
  ArcGraph g;
  g.n = mirror ? L + R : L;
  Slots<Index> degree(g.n, 0);
  for (const auto& e : edges) {
    ++degree[e.left];
    if (mirror) ++degree[L + e.right];
  }
  const auto uncovered = [](const std::vector<bool>& cover, Index v) { return !cover[static_cast<std::size_t>(v)]; };
  if (mirror) {
    for (Index l = 0; l < L; ++l) degree[l] += uncovered(cover_left, l);
    for (Index r = 0; r < R; ++r) degree[L + r] += uncovered(cover_right, r);
  }
  g.first.assign(g.n + 1, 0);
  for (Index v = 0; v < g.n; ++v) g.first[v + 1] = g.first[v] + degree[v];
  g.arcs.assign(g.first[g.n], Arc{});
  Slots<Index> fill(g.n, 0);
  const auto add = [&](Index l, Arc arc) { g.arcs[g.first[l] + fill[l]++] = arc; };
  for (std::size_t k = 0; k < edges.size(); ++k) {
    const auto& e = edges[k];
    add(e.left, {e.right, W - e.weight, static_cast<Index>(k)});
    if (mirror) add(L + e.right, {R + e.left, W, kNone});
  }
  if (mirror) {
    for (Index l = 0; l < L; ++l) {
      if (uncovered(cover_left, l)) add(l, {R + l, W, kNone});
    }
    for (Index r = 0; r < R; ++r) {
      if (uncovered(cover_right, r)) add(L + r, {r, W, kNone});
    }
  }
  return g;
}

// Minimum-cost perfect matching of an ArcGraph by the primal-dual method with Hopcroft–Karp
// phases, on potentials owned by the caller: the reduced cost cost − pl[l] − pr[r] of every arc
// stays non-negative, and matched arcs have reduced cost 0 (they are "tight").
class PerfectMatching {
 public:
  PerfectMatching(const ArcGraph& g, Index* pl, Index* pr)
      : g_(g), pl_(pl), pr_(pr), mate_arc_(g.n, kNone), mate_right_(g.n, kNone) {}

  /// Throws std::invalid_argument when the graph has no perfect matching.
  void solve() {
    while (!grow_tight_matching()) raise_potentials();
  }
  /// The arc matched at left vertex l.
  const Arc& matched_arc(Index l) const { return g_.arcs[mate_arc_[l]]; }

 private:
  Index reduced(Index l, const Arc& a) const { return a.cost - pl_[l] - pr_[a.to]; }
  bool is_free(Index l) const { return mate_arc_[l] == kNone; }

  // Hopcroft–Karp restricted to tight arcs, from the current matching. True when perfect.
  bool grow_tight_matching() {
    while (matched_ < g_.n && layer_free_vertices()) {
      for (Index l = 0; l < g_.n; ++l) next_arc_[l] = g_.first[l];
      Index gained = 0;
      for (Index l = 0; l < g_.n; ++l) {
        if (is_free(l) && layer_[l] == 0 && augment_from(l)) ++gained;
      }
      if (gained == 0) break;
    }
    return matched_ == g_.n;
  }

  // Breadth-first layers of the tight alternating forest rooted at the free left vertices; true
  // when the forest reaches a free right vertex.
  bool layer_free_vertices() {
    layer_.assign(g_.n, kInfinity);
    next_arc_.assign(g_.n, 0);
    queue_.clear();
    for (Index l = 0; l < g_.n; ++l) {
      if (is_free(l)) {
        layer_[l] = 0;
        queue_.push_back(l);
      }
    }
    bool found = false;
    for (Index head = 0; head < queue_.size(); ++head) {
      const Index l = queue_[head];
      for (Index k = g_.first[l]; k < g_.first[l + 1]; ++k) {
        const Arc& a = g_.arcs[k];
        if (reduced(l, a) != 0) continue;
        const Index next = mate_right_[a.to];
        if (next == kNone) {
          found = true;
        } else if (layer_[next] == kInfinity) {
          layer_[next] = layer_[l] + 1;
          queue_.push_back(next);
        }
      }
    }
    return found;
  }

  // Depth-first search for a tight augmenting path along increasing layers; iterative, because a
  // path can be as long as the graph is wide. Augments and returns true when it finds one.
  bool augment_from(Index root) {
    path_.clear();
    path_.push_back(root);
    while (!path_.empty()) {
      const Index l = path_.back();
      bool descended = false;
      for (Index& k = next_arc_[l]; k < g_.first[l + 1]; ++k) {
        const Arc& a = g_.arcs[k];
        if (reduced(l, a) != 0) continue;
        const Index next = mate_right_[a.to];
        if (next == kNone) {
          for (Index i = 0; i < path_.size(); ++i) match(path_[i], next_arc_[path_[i]]);
          ++matched_;
          return true;
        }
        if (layer_[next] == layer_[l] + 1) {
          path_.push_back(next);
          descended = true;
          break;
        }
      }
      if (!descended) {
        layer_[l] = kInfinity;  // a dead end for the rest of this phase
        path_.pop_back();
        if (!path_.empty()) ++next_arc_[path_.back()];
      }
    }
    return false;
  }

  void match(Index l, Index arc) {
    mate_arc_[l] = arc;
    mate_right_[g_.arcs[arc].to] = l;
  }

  // Dijkstra over reduced costs from every free left vertex, stopped at the first free right
  // vertex (distance D). Raising the potentials of the vertices closer than D by their distance to
  // D makes every shortest augmenting path tight and keeps every reduced cost non-negative.
  void raise_potentials() {
    const Index n = g_.n;
    dist_left_.assign(n, kInfinity);
    dist_right_.assign(n, kInfinity);
    using Entry = std::pair<Index, Index>;  // (distance, node): left vertex l is l, right r is n + r
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
    for (Index l = 0; l < n; ++l) {
      if (is_free(l)) {
        dist_left_[l] = 0;
        heap.emplace(0, l);
      }
    }
    Index shortest = kInfinity;
    while (!heap.empty() && shortest == kInfinity) {
      const auto [d, node] = heap.top();
      heap.pop();
      if (node >= n) {
        const Index r = node - n;
        if (d != dist_right_[r]) continue;
        const Index l = mate_right_[r];
        if (l == kNone) {
          shortest = d;
        } else if (d < dist_left_[l]) {
          dist_left_[l] = d;  // matched arcs are tight: crossing back costs nothing
          heap.emplace(d, l);
        }
      } else if (d == dist_left_[node]) {
        for (Index k = g_.first[node]; k < g_.first[node + 1]; ++k) {
          if (k == mate_arc_[node]) continue;
          const Arc& a = g_.arcs[k];
          const Index next = d + reduced(node, a);
          if (next < dist_right_[a.to]) {
            dist_right_[a.to] = next;
            heap.emplace(next, n + a.to);
          }
        }
      }
    }
    if (shortest == kInfinity) throw std::invalid_argument("no matching covers every required vertex");
    for (Index v = 0; v < n; ++v) {
      if (dist_left_[v] < shortest) pl_[v] += shortest - dist_left_[v];
      if (dist_right_[v] < shortest) pr_[v] -= shortest - dist_right_[v];
    }
  }

  const ArcGraph& g_;
  Index* pl_;  // potentials of the left vertices
  Index* pr_;  // potentials of the right vertices
  Slots<Index> mate_arc_;    // arc matched at each left vertex, or kNone
  Slots<Index> mate_right_;  // left vertex matched at each right vertex, or kNone
  Index matched_ = 0;
  Slots<Index> layer_, next_arc_, queue_, path_;
  Slots<Index> dist_left_, dist_right_;
};

// True when the potentials are feasible for `g` (no negative reduced cost) and small enough to keep.
bool potentials_usable(const ArcGraph& g, const Index* pl, const Index* pr) {
  const auto small = [](Index v) { return v > -kPotentialLimit && v < kPotentialLimit; };
  for (Index l = 0; l < g.n; ++l) {
    if (!small(pl[l]) || !small(pr[l])) return false;
    for (Index k = g.first[l]; k < g.first[l + 1]; ++k) {
      if (g.arcs[k].cost - pl[l] - pr[g.arcs[k].to] < 0) return false;
    }
  }
  return true;
}

}  // namespace

MaxWeightMatcher::MaxWeightMatcher(Index left_count, Index right_count, Index max_weight)
    : left_count_(left_count), right_count_(right_count), max_weight_(max_weight) {
  require_non_negative(left_count, "left vertex count");
  require_non_negative(right_count, "right vertex count");
  require_non_negative(max_weight, "maximum weight");
  const Index vertices = checked_add(left_count, right_count, "vertex count");
  if (max_weight > weight_limit(left_count, right_count)) {
    throw OverflowError("message lengths too large to schedule: path costs could overflow 64 bits");
  }
  potential_left_.assign(static_cast<std::size_t>(vertices), 0);
  potential_right_.assign(static_cast<std::size_t>(vertices), 0);
}

Index MaxWeightMatcher::weight_limit(Index left_count, Index right_count) {
  return kWeightBudget / (2 * checked_add(left_count, right_count, "vertex count") + 2);
}

std::vector<std::size_t> MaxWeightMatcher::match(std::span<const BipartiteEdge> edges,
                                                 const std::vector<bool>& cover_left,
                                                 const std::vector<bool>& cover_right) {
  if (static_cast<Index>(cover_left.size()) != left_count_ || static_cast<Index>(cover_right.size()) != right_count_) {
    throw std::invalid_argument("cover flags must have one entry per vertex");
  }
  for (const auto& e : edges) {
    require_in_range(e.left, left_count_, "left vertex");
    require_in_range(e.right, right_count_, "right vertex");
    if (e.weight < 0 || e.weight > max_weight_) {
      throw std::invalid_argument("edge weight " + std::to_string(e.weight) + " is outside [0, " +
                                  std::to_string(max_weight_) + "]");
    }
  }
  const auto all = [](const std::vector<bool>& flags) { return std::find(flags.begin(), flags.end(), false) == flags.end(); };
  // Covering every vertex of equal sides asks for a perfect matching of the real graph: the mirror
  // half would be an independent copy of it, so it is left out.
  const bool mirror = !(all(cover_left) && all(cover_right) && left_count_ == right_count_);
  const ArcGraph g = doubled_graph(edges, left_count_, right_count_, max_weight_, cover_left, cover_right, mirror);

  if (!potentials_usable(g, potential_left_.data(), potential_right_.data())) {
    std::fill(potential_left_.begin(), potential_left_.end(), 0);
    std::fill(potential_right_.begin(), potential_right_.end(), 0);
  }
  PerfectMatching matching(g, potential_left_.data(), potential_right_.data());
  matching.solve();

  std::vector<std::size_t> chosen;
  for (Index l = 0; l < left_count_; ++l) {
    const Arc& a = matching.matched_arc(l);
    if (a.edge != kNone) chosen.push_back(static_cast<std::size_t>(a.edge));
  }
  return chosen;
}

}  // namespace redist
