#include "redist/reports/holes_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <stdexcept>

#include "redist/core/checks.hpp"
#include "redist/holes/local_array.hpp"

namespace redist {
namespace {

// The array is printed whole; beyond this it is no longer something to read.
constexpr Index kMaxPrinted = Index{1} << 24;

// One error naming the option, before the mapping's own checks (overflow) run.
void check_options(const TwoLevelMapping& m, Index rank) {
  require_positive(m.procs, "-P (processors)");
  require_positive(m.block, "--block (block size)");
  require_positive(m.stride, "--stride (alignment stride)");
  require_non_negative(m.offset, "--offset (alignment offset)");
  require_positive(m.size, "-n (array size)");
  require_in_range(rank, m.procs, "--rank");
  m.validate();
}

std::string class_table_text(const ClassTable& classes) {
  std::string out = fmt::format("Class table: N_c = {} classes, A_c = {} active elements per class cycle\n",
                                classes.classes(), classes.cycle_elements());
  out += fmt::format("{:>6} {:>6} {:>6} {:>6}\n", "c", "A_f", "A_l", "A_n");
  for (Index c = 0; c < classes.classes(); ++c) {
    out += fmt::format("{:>6} {:>6} {:>6} {:>6}\n", c, classes[c].first, classes[c].last, classes[c].count);
  }
  return out;
}

std::string compression_table_text(const CompressionTable& table) {
  const Index p = table.proc();
  std::string out = fmt::format(
      "Compression table of p{}: N_pb^p = {} occurrences, A_ptn = {} (global indexing offset), "
      "A^p_ptn = {} (local indexing offset)\n",
      p, table.occurrences(), table.pattern_elements(), table.local_pattern_elements());
  out += fmt::format("{:>10} {:>8} {:>8} {:>8}\n", "occurrence", fmt::format("C_g^{}", p), fmt::format("C_n^{}", p),
                     fmt::format("C_l^{}", p));
  for (Index k = 0; k < table.occurrences(); ++k) {
    out += fmt::format("{:>10} {:>8} {:>8} {:>8}\n", k, table[k].global, table[k].count, table[k].local);
  }
  return out;
}

}  // namespace

HolesResult compute_holes(const TwoLevelMapping& mapping, Index rank) {
  check_options(mapping, rank);
  Work work;
  ClassTable classes(mapping.stride, mapping.offset, mapping.block, work);
  CompressionTable table(classes, mapping.procs, rank, work);
  const Index count = local_array_size(table, mapping.size, mapping.pseudo_active());
  if (count > kMaxPrinted) {
    throw std::invalid_argument("the local array of rank " + std::to_string(rank) + " has " + std::to_string(count) +
                                " elements; at most 2^24 are printed");
  }
  std::vector<Index> local;
  compressed_local_array(mapping, rank, local, work);
  return {mapping, rank, std::move(classes), std::move(table), std::move(local)};
}

nlohmann::ordered_json holes_json(const HolesResult& r) {
  nlohmann::ordered_json classes = nlohmann::ordered_json::array();
  for (Index c = 0; c < r.classes.classes(); ++c) {
    classes.push_back({{"class", c}, {"first", r.classes[c].first}, {"last", r.classes[c].last}, {"count", r.classes[c].count}});
  }
  nlohmann::ordered_json occurrences = nlohmann::ordered_json::array();
  for (Index k = 0; k < r.table.occurrences(); ++k) {
    const CompressionEntry& e = r.table[k];
    occurrences.push_back({{"occurrence", k}, {"global", e.global}, {"count", e.count}, {"local", e.local}});
  }
  return {{"class_table", classes}, {"compression_table", occurrences}, {"local_array", r.local}};
}

std::string holes_text(const HolesResult& r) {
  const TwoLevelMapping& m = r.mapping;
  std::string out = fmt::format("ALIGN A(i) WITH T({}*i+{}), DISTRIBUTE T(CYCLIC({})) ONTO {} processors, N_A = {}\n",
                                m.stride, m.offset, m.block, m.procs, m.size);
  out += fmt::format("reduced offset r = {}, pseudo-active elements = {}\n\n", m.reduced_offset(), m.pseudo_active());
  out += class_table_text(r.classes) + "\n" + compression_table_text(r.table) + "\n";
  out += fmt::format("Compressed local array of p{} ({} elements, {} pseudo-active skipped):\n", r.rank, r.local.size(),
                     r.table.count_before(m.pseudo_active()));
  out += fmt::format("A^p{} = ({})\n", r.rank, fmt::join(r.local, ", "));
  return out;
}

}  // namespace redist
