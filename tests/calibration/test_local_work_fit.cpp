// Calibrate's reading of `redist-mpi localwork --json`: work counts are taken by price property, the
// index rows in kIndexKinds order, the copy prices fitted together on the copy rows, and several
// passes merged row by row.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <tuple>

#include "redist/calibration/local_work_measurements.hpp"

namespace redist::calibration {
namespace {

TEST(LocalWorkFit, RecoversTheCopyPricesOfSyntheticRows) {
  // Rows timed exactly at 5e-11 s per byte, 2e-10 s per run and 3e-9 s per record, over many random
  // shapes (strided records of many runs, or a record per run): the fit gives all three back; rows
  // with no runs key (whole-message copies) count 0 runs and 0 records.
  constexpr double kByte = 5e-11, kRun = 2e-10, kRecord = 3e-9;
  std::mt19937_64 rng(27);
  std::uniform_real_distribution<double> bytes(1e5, 1e8), runs_per_kib(0, 64), runs_per_record(1, 100);
  nlohmann::json json = {{"index", nlohmann::json::array()}, {"copies", nlohmann::json::array()}};
  for (int i = 0; i < 40; ++i) {
    const double b = bytes(rng), r = i % 5 == 0 ? 0.0 : b / 1024 * runs_per_kib(rng);
    const double records = i % 3 == 0 ? r : r / runs_per_record(rng);
    nlohmann::json work = {{"cost.byte_copied", b}};
    if (r > 0) work["cost.run_copied"] = r;
    if (records > 0) work["cost.record_copied"] = records;
    json["copies"].push_back({{"work", work}, {"seconds", b * kByte + r * kRun + records * kRecord}});
  }
  const LocalWork w = local_work_from_json(json);
  ASSERT_EQ(w.copies.size(), 40u);
  EXPECT_EQ(w.copies[0].runs, 0);
  EXPECT_EQ(w.copies[0].records, 0);
  EXPECT_NEAR(w.byte_copied / kByte, 1, 1e-9);
  EXPECT_NEAR(w.run_copied / kRun, 1, 1e-9);
  EXPECT_NEAR(w.record_copied / kRecord, 1, 1e-9);
}

// pdgemr2d's rows (its copies on one process): the price of an element copied one at a time is what
// they take beyond their bytes, runs and records at the copy prices fitted from the other rows.
TEST(LocalWorkFit, RecoversTheElementPriceOfPdgemr2dRows) {
  constexpr double kByte = 5e-11, kRun = 2e-10, kRecord = 3e-9, kElement = 7e-10;
  std::mt19937_64 rng(56);
  std::uniform_real_distribution<double> bytes(1e5, 1e8), runs_per_kib(1, 64), runs_per_record(1, 100);
  nlohmann::json json = {{"index", nlohmann::json::array()}, {"copies", nlohmann::json::array()}};
  for (int i = 0; i < 20; ++i) {
    const double b = bytes(rng), r = b / 1024 * runs_per_kib(rng), records = r / runs_per_record(rng);
    json["copies"].push_back({{"work", {{"cost.byte_copied", b}, {"cost.run_copied", r}, {"cost.record_copied", records}}},
                              {"seconds", b * kByte + r * kRun + records * kRecord}});
  }
  EXPECT_EQ(local_work_from_json(json).element_copied, 0);  // no pdgemr2d rows: measured before they were
  for (const double elements : {1e6, 3e5, 2e6}) {
    const double runs = elements / 16 * 2 + 1;
    json["pdgemr2d"].push_back({{"work", {{"cost.element_copied", 3 * elements}, {"cost.byte_copied", 24 * elements},
                                          {"cost.run_copied", runs}, {"cost.record_copied", 2}}},
                                {"seconds", 3 * elements * kElement + 24 * elements * kByte + runs * kRun + 2 * kRecord}});
  }
  const LocalWork w = local_work_from_json(json);
  ASSERT_EQ(w.pdgemr2d.size(), 3u);
  EXPECT_NEAR(w.element_copied / kElement, 1, 1e-6);
  // Passes keep each pdgemr2d row's fastest too.
  nlohmann::json slower = json;
  for (auto& row : slower["pdgemr2d"]) row["seconds"] = row["seconds"].get<double>() * 2;
  EXPECT_NEAR(local_work_from_json(fastest_rows({slower, json})).element_copied / kElement, 1, 1e-6);
}

// A first touch's price is what writing mapped memory takes beyond writing memory written before, a
// byte; never negative (a noisy pass cannot make faults save time); each write at its fastest pass.
TEST(LocalWorkFit, FirstTouchPriceIsTheFreshWriteBeyondTheWarmOne) {
  nlohmann::json json = {{"index", nlohmann::json::array()}, {"copies", nlohmann::json::array()}};
  json["copies"].push_back({{"work", {{"cost.byte_copied", 1e6}}}, {"seconds", 1e-4}});
  EXPECT_EQ(local_work_from_json(json).byte_faulted, 0);  // measured before first touches were
  EXPECT_FALSE(local_work_from_json(json).first_touch);
  json["first_touch"] = {{"bytes", 1 << 20}, {"fresh", 3e-3}, {"warm", 1e-3}};
  EXPECT_NEAR(local_work_from_json(json).byte_faulted / (2e-3 / (1 << 20)), 1, 1e-12);
  nlohmann::json slower = json;
  slower["first_touch"]["fresh"] = 9e-3;
  slower["first_touch"]["warm"] = 0.5e-3;
  EXPECT_NEAR(local_work_from_json(fastest_rows({slower, json})).byte_faulted / (2.5e-3 / (1 << 20)), 1, 1e-12);
  json["first_touch"]["fresh"] = 0.9e-3;
  EXPECT_EQ(local_work_from_json(json).byte_faulted, 0);
  json["first_touch"]["bytes"] = 0;
  EXPECT_THROW(local_work_from_json(json), std::runtime_error);
}

TEST(LocalWorkFit, IndexRowsAreCountedByPriceProperty) {
  const nlohmann::json json = {
      {"index",
       {{{"work", {{"cost.run_listed", 7}, {"cost.index_op", 3}, {"cost.byte_copied", 99}}}, {"seconds", 1e-6}}}},
      {"copies", {{{"work", {{"cost.byte_copied", 1000}}}, {"seconds", 1e-7}}}}};
  const LocalWork w = local_work_from_json(json);
  ASSERT_EQ(w.index.size(), 1u);
  ASSERT_EQ(w.index[0].counts.size(), kIndexKinds.size());
  for (std::size_t k = 0; k < kIndexKinds.size(); ++k) {
    const double expected = kIndexKinds[k] == WorkKind::IndexOp ? 3 : kIndexKinds[k] == WorkKind::RunListed ? 7 : 0;
    EXPECT_EQ(w.index[0].counts[k], expected) << price_property(kIndexKinds[k]);
  }
  EXPECT_EQ(w.index[0].seconds, 1e-6);
  EXPECT_NEAR(w.byte_copied, 1e-10, 1e-22);  // one row, bytes only
}

// calibrate --passes: each row at its fastest pass, whichever pass that was.
TEST(LocalWorkFit, PassesKeepEachRowsFastest) {
  const auto pass = [](double index_seconds, double copy_seconds) {
    return nlohmann::json{{"index", {{{"work", {{"cost.index_op", 10}}}, {"seconds", index_seconds}}}},
                          {"copies", {{{"work", {{"cost.byte_copied", 100}}}, {"seconds", copy_seconds}}}}};
  };
  const nlohmann::json fastest = fastest_rows({pass(3e-6, 1e-7), pass(2e-6, 4e-7), pass(5e-6, 2e-7)});
  EXPECT_EQ(fastest, pass(2e-6, 1e-7));
  const LocalWork w = local_work_from_json(fastest);
  EXPECT_EQ(w.index[0].seconds, 2e-6);
  EXPECT_NEAR(w.byte_copied, 1e-9, 1e-21);
}

TEST(LocalWorkFit, PassesOfDifferentRowsAreRefused) {
  const nlohmann::json one = {{"index", {{{"work", {{"cost.index_op", 10}}}, {"seconds", 1e-6}}}},
                              {"copies", nlohmann::json::array()}};
  nlohmann::json other_work = one, more_rows = one;
  other_work["index"][0]["work"]["cost.index_op"] = 11;
  more_rows["index"].push_back(one["index"][0]);
  EXPECT_THROW(fastest_rows({one, other_work}), std::runtime_error);
  EXPECT_THROW(fastest_rows({one, more_rows}), std::runtime_error);
  EXPECT_THROW(fastest_rows({}), std::runtime_error);
  EXPECT_EQ(fastest_rows({one}), one);
}

// Each copy row says which copy it timed; rows measured before they said so are of no direction,
// and a direction other than pack, unpack or sweep is refused.
TEST(LocalWorkFit, CopyRowsKeepTheirDirection) {
  nlohmann::json json = {{"index", nlohmann::json::array()}, {"copies", nlohmann::json::array()}};
  const std::vector<std::string> directions = {"pack", "unpack", "sweep", ""};
  for (int i = 0; i < 8; ++i) {
    nlohmann::json row = {{"work", {{"cost.byte_copied", 1000 * (i + 1)}, {"cost.run_copied", 10 + i}}},
                          {"seconds", 1e-6 * (i + 1)}};
    if (!directions[i % 4].empty()) row["direction"] = directions[i % 4];
    json["copies"].push_back(row);
  }
  const LocalWork w = local_work_from_json(json);
  ASSERT_EQ(w.copies.size(), 8u);
  const std::optional<CopyLoop> expected[] = {CopyLoop::Pack, CopyLoop::Unpack, CopyLoop::UnpackSweep, std::nullopt};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(w.copies[i].loop, expected[i % 4]) << i;
  json["copies"][0]["direction"] = "both";
  EXPECT_THROW(local_work_from_json(json), std::runtime_error);
}

// With the memory modelled and every row's direction known, each loop's factor on the memory's time
// for its bytes is fitted beside the run and record prices: rows timed exactly at 1.6 × (packs),
// 1.2 × (unpacks) and 1.45 × (sweeps) the memory's seconds, plus their runs and records, give all five
// back, rows missed by far left out. Without sweep rows the sweep's factor stays undeclared (the
// unpack's stands for it). Rows of which some say no direction keep the memory's time as it is
// (factors 1).
TEST(LocalWorkFit, RecoversEachLoopsFactorOnTheMemorysTime) {
  constexpr double kPack = 1.6, kUnpack = 1.2, kSweep = 1.45, kRun = 2e-10, kRecord = 3e-9;
  nlohmann::json json = {{"index", nlohmann::json::array()}, {"copies", nlohmann::json::array()},
                         {"copy_bandwidth", nlohmann::json::array()}};
  for (const auto& [ranks, bytes, cold] : {std::tuple{1, 4096, 8e9}, std::tuple{1, 1 << 22, 2e10}, std::tuple{2, 4096, 7e9},
                                           std::tuple{2, 1 << 22, 1.5e10}}) {
    json["copy_bandwidth"].push_back({{"ranks", ranks}, {"bytes", bytes}, {"warm", 2 * cold}, {"cold", cold}});
  }
  const NodeMemory memory = NodeMemory::from_measurements({{1, 4096, 8e9}, {1, 1 << 22, 2e10}, {2, 4096, 7e9}, {2, 1 << 22, 1.5e10}});
  std::mt19937_64 rng(61);
  std::uniform_real_distribution<double> bytes(1e4, 1e8), runs_per_kib(0, 64), runs_per_record(1, 100);
  const std::pair<const char*, double> loops[] = {{"pack", kPack}, {"unpack", kUnpack}, {"sweep", kSweep}};
  for (int i = 0; i < 60; ++i) {
    const auto [direction, factor] = loops[i % 3];
    const double b = bytes(rng), r = b / 1024 * runs_per_kib(rng), records = r / runs_per_record(rng);
    const double seconds = factor * memory.copy_seconds(b, 2) + r * kRun + records * kRecord;
    json["copies"].push_back({{"work", {{"cost.byte_copied", b}, {"cost.run_copied", r}, {"cost.record_copied", records}}},
                              {"seconds", seconds}, {"direction", direction}});
  }
  // Two rows of pieces far apart, at 3 times their counted work: left out of the fit.
  for (const int row : {4, 7}) json["copies"][row]["seconds"] = 3 * json["copies"][row]["seconds"].get<double>();
  const LocalWork w = local_work_from_json(json);
  ASSERT_TRUE(w.memory.has_value());
  for (std::size_t row = 0; row < w.copies.size(); ++row) EXPECT_EQ(w.copies[row].left_out, row == 4 || row == 7) << row;
  EXPECT_NEAR(w.memory->pack_factor / kPack, 1, 1e-9);
  EXPECT_NEAR(w.memory->unpack_factor / kUnpack, 1, 1e-9);
  ASSERT_TRUE(w.memory->sweep_factor.has_value());
  EXPECT_NEAR(*w.memory->sweep_factor / kSweep, 1, 1e-9);
  EXPECT_NEAR(w.run_copied / kRun, 1, 1e-6);
  EXPECT_NEAR(w.record_copied / kRecord, 1, 1e-6);
  nlohmann::json without_sweeps = json;
  without_sweeps["copies"] = nlohmann::json::array();
  for (const auto& row : json["copies"]) {
    if (row["direction"] != "sweep") without_sweeps["copies"].push_back(row);
  }
  const LocalWork unswept = local_work_from_json(without_sweeps);
  EXPECT_NEAR(unswept.memory->pack_factor / kPack, 1, 1e-9);
  EXPECT_FALSE(unswept.memory->sweep_factor.has_value());
  EXPECT_EQ(unswept.memory->loop_factor(CopyLoop::UnpackSweep), unswept.memory->unpack_factor);
  json["copies"][3].erase("direction");
  const LocalWork undirected = local_work_from_json(json);
  EXPECT_EQ(undirected.memory->pack_factor, 1);
  EXPECT_EQ(undirected.memory->unpack_factor, 1);
}

// Rows that say what they touched were timed as repeated calls run them, on every rank at once: the
// memory is the warm copies', each row read at half of what the node's ranks touched (or its
// bytes, where more), and the factors come back. Rows that say nothing were timed cold: the cold copies'.
TEST(LocalWorkFit, RowsNamingWhatTheyTouchedArePricedByTheWarmCopies) {
  constexpr double kPack = 1.3, kUnpack = 0.9, kRun = 1e-10, kRecord = 2e-9;
  nlohmann::json json = {{"index", nlohmann::json::array()}, {"copies", nlohmann::json::array()},
                         {"copy_bandwidth", nlohmann::json::array()}};
  for (const auto& [ranks, bytes, warm] : {std::tuple{1, 4096, 9e10}, std::tuple{1, 1 << 22, 3e10}, std::tuple{2, 4096, 8e10},
                                           std::tuple{2, 1 << 22, 2e10}}) {
    json["copy_bandwidth"].push_back({{"ranks", ranks}, {"bytes", bytes}, {"warm", warm}, {"cold", warm / 4}});
  }
  const NodeMemory warm = NodeMemory::from_measurements({{1, 4096, 9e10}, {1, 1 << 22, 3e10}, {2, 4096, 8e10}, {2, 1 << 22, 2e10}});
  std::mt19937_64 rng(62);
  std::uniform_real_distribution<double> bytes(1e4, 1e7), touched_over(1, 8), runs_per_kib(0, 64), runs_per_record(1, 100);
  for (int i = 0; i < 40; ++i) {
    const bool pack = i % 2 == 0;
    const double b = bytes(rng), touched = b * touched_over(rng), r = b / 1024 * runs_per_kib(rng), records = r / runs_per_record(rng);
    const double seconds = (pack ? kPack : kUnpack) * warm.copy_seconds(b, 2, CopyLoop::Pack, 2 * touched) + r * kRun + records * kRecord;
    json["copies"].push_back({{"work", {{"cost.byte_copied", b}, {"cost.run_copied", r}, {"cost.record_copied", records}}},
                              {"seconds", seconds}, {"direction", pack ? "pack" : "unpack"}, {"touched", touched}});
  }
  const LocalWork w = local_work_from_json(json);
  ASSERT_TRUE(w.memory.has_value());
  EXPECT_TRUE(w.warm_copies);
  EXPECT_EQ(w.memory->copy_bandwidth, warm.copy_bandwidth);
  EXPECT_NEAR(w.memory->pack_factor / kPack, 1, 1e-9);
  EXPECT_NEAR(w.memory->unpack_factor / kUnpack, 1, 1e-9);
  EXPECT_NEAR(w.run_copied / kRun, 1, 1e-6);
  EXPECT_NEAR(w.record_copied / kRecord, 1, 1e-6);
  for (auto& row : json["copies"]) row.erase("touched");
  const LocalWork cold = local_work_from_json(json);
  EXPECT_FALSE(cold.warm_copies);
  EXPECT_EQ(cold.memory->copy_bandwidth.text(), "0:2.25e+10;4194304:7.5e+09");
}

TEST(LocalWorkFit, MalformedOutputThrows) {
  EXPECT_THROW(local_work_from_json(nlohmann::json::object()), nlohmann::json::exception);
  EXPECT_THROW(local_work_from_json({{"index", nlohmann::json::array()}, {"copies", {{{"seconds", 1}}}}}),
               nlohmann::json::exception);
}

}  // namespace
}  // namespace redist::calibration
