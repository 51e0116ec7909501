// The prediction behind `auto` (redist/predict): message costs by hand, the candidate set, the naive
// shortcut against naive's own plan, and the machine model's JSON.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <tuple>

#include "redist/predict/machine_model_json.hpp"
#include "redist/core/splitmix.hpp"
#include "redist/indexing/indexing_methods.hpp"
#include "redist/predict/predicted_comm.hpp"
#include "redist/predict/prediction.hpp"
#include "redist/redistribute/direct_exchange.hpp"
#include "redist/redistribute/layout_schedule.hpp"
#include "redist/redistribute/local_copy.hpp"
#include "redist/redistribute/work_accounting.hpp"
#include "redist/transport/message_regime.hpp"

namespace redist {
namespace {

// Two hosts, each with its own loopback (links 0, 1); between them a shared link (2) and a fat pipe (3).
MachineModel two_hosts() {
  MachineModel m;
  m.prices.send_overhead = 1e-6;
  m.prices.recv_overhead = 2e-6;
  m.prices.seconds[static_cast<std::size_t>(WorkKind::ByteCopied)] = 1e-9;
  m.prices.seconds[static_cast<std::size_t>(WorkKind::ElementScanned)] = 1e-8;
  m.hosts = 2;
  m.links = {{1e10, true}, {1e10, true}, {1e8, true}, {1e9, false}};
  m.routes = {{{0}, 0}, {{2, 3}, 5e-6}, {{2, 3}, 5e-6}, {{1}, 0}};
  return m;
}

TEST(PredictedComm, OneMessageIsOverheadsLatencyAndBytesOverBandwidth) {
  const MachineModel m = two_hosts();
  EXPECT_DOUBLE_EQ(concurrent_messages_seconds({{0, 1, 1000000}}, m), 1e-6 + 2e-6 + 5e-6 + 1e6 / 1e8);
  EXPECT_DOUBLE_EQ(concurrent_messages_seconds({}, m), 0);
}

TEST(PredictedComm, FlowsShareALinkButNotAFatPipe) {
  MachineModel m = two_hosts();
  // Both directions cross shared link 2: it carries 2 MB. Ranks 0 and 2 sit on host 0.
  const double both = concurrent_messages_seconds({{0, 1, 1000000}, {1, 0, 1000000}}, m);
  EXPECT_DOUBLE_EQ(both, 3e-6 + 5e-6 + 2e6 / 1e8);
  // Host 0 posts two sends (2 µs), host 1 then completes two receives (4 µs).
  EXPECT_DOUBLE_EQ(concurrent_messages_seconds({{0, 1, 0}, {2, 1, 0}}, m), 2e-6 + 5e-6 + 4e-6);
  m.links[2].shared = false;  // now two fat pipes: each flow alone at 1e8 B/s
  EXPECT_DOUBLE_EQ(concurrent_messages_seconds({{0, 1, 1000000}, {1, 0, 1000000}}, m), 3e-6 + 5e-6 + 1e6 / 1e8);
}

TEST(PredictedComm, BarrierIsLogRoundsOrTheHardwareLatency) {
  MachineModel m = two_hosts();
  m.routes[0].latency = m.routes[3].latency = 5e-6;  // on a host as between hosts
  // 4 ranks: 2 rounds; in each, each host posts two sends and completes two receives.
  EXPECT_DOUBLE_EQ(barrier_seconds(4, m), 2 * (2 * 1e-6 + 2 * 2e-6 + 5e-6));
  EXPECT_DOUBLE_EQ(barrier_seconds(1, m), 0);
  m.barrier_latency = 4e-6;
  EXPECT_DOUBLE_EQ(barrier_seconds(64, m), 4e-6);
}

std::set<std::string> field(const std::vector<Candidate>& cs, std::string Candidate::*f) {
  std::set<std::string> out;
  for (const Candidate& c : cs) out.insert(c.*f);
  return out;
}

// The candidate set relabels once per relabelling and tries each schedule once per placement; the
// prediction on it relabels and builds nothing more, and prices as predict_all_ranks does.
TEST(Candidates, TheSetComputesEachPlacementAndScheduleOnce) {
  const Layout from = BlockCyclic(2400, 3, 4), to = BlockCyclic(2400, 5, 4);
  Index strategies = 0;
  for (const ScheduleChoice choice : schedule_names().values()) strategies += choice.has_value() ? 1 : 0;
  const auto relabellings = relabellings_computed();
  const auto schedules = layout_schedules_asked();
  const CandidateSet set = candidate_set(from, to, RankMap::shared(), {"auto", "auto", "auto"});
  EXPECT_EQ(relabellings_computed() - relabellings, 2);         // exact and greedy; none relabels nothing
  EXPECT_EQ(layout_schedules_asked() - schedules, 3 * strategies);  // every strategy on each of 3 placements
  EXPECT_EQ(set.list, candidates(from, to, RankMap::shared(), {"auto", "auto", "auto"}));
  for (const RelabelMethod method : relabel_method_names().values()) {
    EXPECT_EQ(set.placement(method).ranks, candidate_ranks(from, to, RankMap::shared(), method));
  }
  Work exact;
  relabelled_ranks(from, to, RelabelMethod::Exact, exact);
  for (const WorkKind kind : {WorkKind::TableEntry, WorkKind::IndexOp, WorkKind::ElementScanned}) {
    EXPECT_EQ(set.placement(RelabelMethod::Exact).work.count(kind), exact.count(kind));
  }
  EXPECT_GT(exact.count(WorkKind::TableEntry), 0);
  EXPECT_EQ(set.placement(RelabelMethod::Exact).seconds, 0);  // untimed without a clock
  const MachineModel m = two_hosts();
  const auto relabelled = relabellings_computed();
  const auto built = layout_schedules_asked();
  std::vector<std::vector<LocalSeconds>> local;
  for (Rank r = 0; r < 4; ++r) local.push_back(predict_local(from, to, 8, set, m, r));
  const auto by_set = predict(from, to, 8, set, m, local);
  EXPECT_EQ(relabellings_computed(), relabelled);
  EXPECT_EQ(layout_schedules_asked(), built);
  const auto by_list = predict_all_ranks(from, to, 8, RankMap::shared(), set.list, m);
  ASSERT_EQ(by_set.size(), by_list.size());
  for (std::size_t k = 0; k < by_set.size(); ++k) {
    EXPECT_EQ(by_set[k].candidate, by_list[k].candidate);
    EXPECT_EQ(by_set[k].phases.total, by_list[k].phases.total) << by_set[k].candidate.label();
    EXPECT_EQ(by_set[k].phases.comm, by_list[k].phases.comm) << by_set[k].candidate.label();
  }
  // A schedule named outright is built when first priced, once.
  const CandidateSet fixed = candidate_set(from, to, RankMap::shared(), {"prylli", "caterpillar", "exact"});
  const auto before = layout_schedules_asked();
  EXPECT_NE(fixed.schedule(from, to, fixed.list.at(0)), nullptr);
  EXPECT_EQ(fixed.schedule(from, to, fixed.list.at(0)), fixed.schedule(from, to, fixed.list.at(0)));
  EXPECT_EQ(layout_schedules_asked() - before, 1);
}

TEST(Candidates, AutoTakesWhatAppliesAndFixedNamesStayFixed) {
  const Layout from = BlockCyclic(1000, 2, 4), to = BlockCyclic(1000, 6, 4);
  const auto all = candidates(from, to, RankMap::shared(), {"auto", "auto", "auto"});
  EXPECT_EQ(field(all, &Candidate::indexing), (std::set<std::string>{"naive", "krr", "pitfalls", "prylli"}));
  // 2 -> 6 on the same processors is Walker and Otto's case.
  EXPECT_EQ(field(all, &Candidate::schedule),
            (std::set<std::string>{"async", "caterpillar", "walker-otto", "stepwise", "greedy"}));
  EXPECT_EQ(all.size(), 4u * 5u * 3u);
  // 3 -> 5: no krr (blocks do not divide), no walker-otto; disjoint processors: no relabelling.
  const Layout odd_from = BlockCyclic(1000, 3, 4), odd_to = BlockCyclic(1000, 5, 4);
  const auto some = candidates(odd_from, odd_to, RankMap::disjoint(4), {"auto", "auto", "auto"});
  EXPECT_EQ(field(some, &Candidate::indexing), (std::set<std::string>{"naive", "pitfalls", "prylli"}));
  EXPECT_EQ(some.size(), 3u * 4u);
  for (const Candidate& c : some) EXPECT_EQ(c.relabel, RelabelMethod::None);
  const auto fixed = candidates(from, to, RankMap::shared(), {"prylli", "auto", "none"});
  EXPECT_EQ(field(fixed, &Candidate::indexing), std::set<std::string>{"prylli"});
  EXPECT_EQ(fixed.size(), 5u);
  EXPECT_THROW(candidates(from, to, RankMap::shared(), {"fast", "auto", "none"}), std::invalid_argument);
  EXPECT_THROW(candidates(from, to, RankMap::disjoint(4), {"auto", "auto", "exact"}), std::invalid_argument);
}

// The shortcut that spares prediction naive's O(N) scan prices exactly what naive's plan would,
// records copied among it (counted by a plan that lists none).
TEST(PredictLocal, NaiveShortcutPricesWhatNaivesOwnPlanCounts) {
  MachineModel m = two_hosts();
  m.prices.seconds[static_cast<std::size_t>(WorkKind::RecordCopied)] = 3e-9;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const auto pick = [&](std::uint64_t k, Index n) { return 1 + static_cast<Index>(splitmix64(seed * 8 + k) % n); };
    const Index P = pick(0, 6), Q = pick(1, 6), N = pick(2, 5000);
    const Layout from = BlockCyclic(N, pick(3, 9), P), to = BlockCyclic(N, pick(4, 9), Q);
    const RankMap ranks = seed % 2 ? RankMap::shared() : RankMap::disjoint(P);
    const std::vector<Candidate> naive = {{"naive", "async", RelabelMethod::None}};
    for (Index me = 0; me < ranks.ranks_needed(P, Q); ++me) {
      Work counted;
      const RankPlan plan = make_plan(indexing_method("naive"), from, to, ranks, static_cast<Rank>(me), true, counted);
      const WorkAccounting& a = redist_work_accounting();
      // exchange_direct's work: the messages it packs and unpacks, the local part copied once.
      const LocalPart local = local_part(plan, static_cast<Rank>(me));
      Work pack, unpack;
      for (const PeerPlan& s : plan.sends) {
        if (&s != local.send && !travels_in_place(s, 8)) pack += a.pack(s, 8);
      }
      for (const PeerPlan& r : plan.receives) {
        if (&r != local.receive && !travels_in_place(r, 8)) unpack += a.unpack(r, 8);
      }
      if (!local.empty()) unpack += local_copy_work(*local.send, *local.receive, 8);
      const LocalSeconds got = predict_local(from, to, 8, ranks, naive, m, static_cast<Rank>(me)).at(0);
      EXPECT_DOUBLE_EQ(got.index, m.prices.seconds_for(a.index(plan, counted))) << "seed " << seed << " rank " << me;
      EXPECT_DOUBLE_EQ(got.pack, m.prices.seconds_for(pack)) << "seed " << seed << " rank " << me;
      EXPECT_DOUBLE_EQ(got.unpack, m.prices.seconds_for(unpack)) << "seed " << seed << " rank " << me;
    }
  }
}

TEST(Predict, RanksOnOneHostAddTheirLocalWorkAndTheFastestIsChosen) {
  const MachineModel m = two_hosts();  // 4 ranks on 2 hosts: ranks 0, 2 on host 0
  const Layout from = BlockCyclic(4000, 1, 4), to = BlockCyclic(4000, 1000, 4);
  const auto cs = candidates(from, to, RankMap::shared(), {"auto", "async", "none"});
  const auto predictions = predict_all_ranks(from, to, 8, RankMap::shared(), cs, m);
  ASSERT_EQ(predictions.size(), cs.size());
  for (std::size_t k = 0; k < cs.size(); ++k) {
    std::vector<LocalSeconds> local;
    for (Rank r = 0; r < 4; ++r) local.push_back(predict_local(from, to, 8, RankMap::shared(), cs, m, r).at(k));
    const Phases& p = predictions[k].phases;
    EXPECT_DOUBLE_EQ(p.pack, std::max(local[0].pack + local[2].pack, local[1].pack + local[3].pack));
    // exchange_direct posts every receive first: no barrier.
    EXPECT_DOUBLE_EQ(p.total, p.index + p.pack + p.comm + p.unpack);
  }
  const std::size_t best = fastest(predictions);
  for (const Prediction& p : predictions) EXPECT_LE(predictions[best].phases.total, p.phases.total);
  EXPECT_NE(predictions[best].candidate.indexing, "naive");  // it scans all 4000 elements at 10 ns
}

// A host's cores share its ranks: a phase takes their summed work over the cores, but never less
// than its longest rank's (no rank runs on two cores).
// A kept plan pays its index phase once: ranked per execution, the candidate cheapest to run wins
// even where its index sets cost more to compute.
TEST(Predict, PerExecutionLeavesTheIndexPhaseOut) {
  std::vector<Prediction> p(2);
  p[0].phases.index = 1.0;
  p[0].phases.total = 1.0 + 2.0;  // quick to plan, slower to run
  p[1].phases.index = 5.0;
  p[1].phases.total = 5.0 + 1.5;
  EXPECT_EQ(fastest(p), 0u);
  EXPECT_EQ(fastest_per_execution(p), 1u);
  EXPECT_THROW(fastest_per_execution({}), std::invalid_argument);
}

TEST(Predict, RanksShareTheirHostsCoresFairly) {
  MachineModel m = two_hosts();
  m.hosts = 1;
  m.links = {{1e10, true}};
  m.routes = {{{0}, 0}};
  const Layout from = BlockCyclic(4000, 1, 3), to = BlockCyclic(4000, 1000, 3);
  const auto cs = candidates(from, to, RankMap::shared(), {"auto", "async", "none"});
  for (const Index cores : {1, 2, 3, 8}) {
    m.cores = cores;
    const auto predictions = predict_all_ranks(from, to, 8, RankMap::shared(), cs, m);
    for (std::size_t k = 0; k < cs.size(); ++k) {
      double summed = 0, longest = 0;
      for (Rank r = 0; r < 3; ++r) {
        const double pack = predict_local(from, to, 8, RankMap::shared(), cs, m, r).at(k).pack;
        summed += pack;
        longest = std::max(longest, pack);
      }
      EXPECT_DOUBLE_EQ(predictions[k].phases.pack, std::max(longest, summed / static_cast<double>(cores)))
          << cores << " cores, " << cs[k].label();
    }
  }
  // Sends posted by three ranks on one host of three cores: one rank's overhead, not three; but
  // one rank's three sends go one after the other, whatever the cores.
  m.cores = 3;
  EXPECT_DOUBLE_EQ(concurrent_messages_seconds({{0, 1, 0}, {1, 2, 0}, {2, 0, 0}}, m), 1e-6 + 2e-6);
  EXPECT_DOUBLE_EQ(concurrent_messages_seconds({{0, 1, 0}, {0, 2, 0}, {0, 1, 0}}, m), 3e-6 + 2 * 2e-6);
}

// One function decides how a message is priced, the first regime that applies winning: shared
// publication offered for the exchange, else CPU copies between two ranks of a host whose ranks
// outnumber its cores and whose route declares a copy rate, else a flow.
TEST(MessageRegime, TheFirstThatAppliesWins) {
  const MessageFacts copied{.same_host = true, .ranks_on_host = 3, .cores = 2, .copy_rate = 2.5e9};
  EXPECT_EQ(message_regime(copied), MessageRegime::CpuCopies);
  MessageFacts published = copied;
  published.shared_publication = true;
  EXPECT_EQ(message_regime(published), MessageRegime::SharedPublication);
  MessageFacts other_host = copied, within_cores = copied, undeclared = copied;
  other_host.same_host = false;
  within_cores.ranks_on_host = 2;
  undeclared.copy_rate = 0;
  for (const MessageFacts& facts : {other_host, within_cores, undeclared}) {
    EXPECT_EQ(message_regime(facts), MessageRegime::Flow);
  }
  // The prediction asks it for each message of a run: only ranks of one host are copied.
  MachineModel m = two_hosts();
  m.cores = 1;
  m.links = {{1e10, true, 2.5e9}};
  m.routes = {{{0}, 0}, {{0}, 0}, {{0}, 0}, {{0}, 0}};
  ASSERT_TRUE(m.run_by(4));
  EXPECT_EQ(m.run_by(4)->regime(0, 2), MessageRegime::CpuCopies);
  EXPECT_EQ(m.run_by(4)->regime(0, 1), MessageRegime::Flow);
  EXPECT_EQ(m.run_by(4)->regime(0, 0), MessageRegime::Flow);
  EXPECT_EQ(m.regime(0, 2), MessageRegime::Flow);
}

// When a host holds more ranks than cores and its route to itself declares an oversubscribed
// bandwidth B, its ranks' messages to each other are copies by their receivers' CPUs at B / cores,
// as they complete, and a send completes with its receive; no flow; a run within the cores, or a
// platform declaring none, keeps its flows; local work is priced as before.
TEST(Predict, OversubscribedHostsCopyTheirMessagesByTheirCpus) {
  MachineModel m = two_hosts();
  m.hosts = 1;
  m.cores = 2;
  m.links = {{1e10, true, 2.5e9}};
  m.routes = {{{0}, 0}};
  EXPECT_FALSE(m.run_by(2));
  ASSERT_TRUE(m.run_by(3));
  const MachineModel run = *m.run_by(3);
  EXPECT_EQ(run.message_copy_rate, 2.5e9 / 2);
  EXPECT_EQ(run.links, m.links);
  // A ring of three 1 MB messages on two cores: each rank copies the 1 MB it receives; the host's
  // three ranks share its two cores: 1.5 times each rank's overheads and copy.
  const double copy = 1e6 / (2.5e9 / 2);
  EXPECT_DOUBLE_EQ(concurrent_messages_seconds({{0, 1, 1000000}, {1, 2, 1000000}, {2, 0, 1000000}}, run),
                   1.5 * 1e-6 + 1.5 * (2e-6 + copy));
  MachineModel turns = run;  // ranks kept to their cores: ranks 0 and 2 copy on core 0 in turn
  turns.time_slice = 4e-3;
  EXPECT_DOUBLE_EQ(concurrent_messages_seconds({{0, 1, 1000000}, {1, 2, 1000000}, {2, 0, 1000000}}, turns),
                   2 * 1e-6 + 2 * (2e-6 + copy));
  // One message on its own: the receiver's copy is in its completion, and its send waits for it.
  const MessageSeconds one = message_seconds_among({0, 1, 1000000}, {{0, 1, 1000000}}, run);
  EXPECT_DOUBLE_EQ(one.posting, 1e-6);
  EXPECT_DOUBLE_EQ(one.completing, 2e-6 + copy);
  EXPECT_TRUE(one.send_waits_for_completion);
  EXPECT_FALSE(message_seconds_among({0, 1, 1000000}, {{0, 1, 1000000}}, m).send_waits_for_completion);
  MachineModel plain = m;  // declaring none
  plain.links[0].oversubscribed_bandwidth = 0;
  EXPECT_FALSE(plain.run_by(3));
  for (const Index P : {2, 3}) {
    const Layout from = BlockCyclic(400000, 1, P), to = BlockCyclic(400000, 1000, P);
    const auto cs = candidates(from, to, RankMap::shared(), {"prylli", "caterpillar", "none"});
    const auto predicted = predict_all_ranks(from, to, 8, RankMap::shared(), cs, m).at(0).phases;
    const auto undeclared = predict_all_ranks(from, to, 8, RankMap::shared(), cs, plain).at(0).phases;
    EXPECT_DOUBLE_EQ(predicted.pack, undeclared.pack);
    if (P == 2) {
      EXPECT_DOUBLE_EQ(predicted.comm, undeclared.comm);
    } else {
      EXPECT_GT(predicted.comm, undeclared.comm);
    }
  }
  EXPECT_EQ(machine_model_from_json(machine_model_to_json(m), "test"), m);
  m.time_slice = 4e-3;  // written where declared, read back
  EXPECT_EQ(machine_model_from_json(machine_model_to_json(m), "test"), m);
  m.switch_costs = PiecewiseCurve::parse("0:0;2:1.5e-5", true);  // a switch that costs nothing is a value
  EXPECT_EQ(machine_model_from_json(machine_model_to_json(m), "test"), m);
  std::string negative = machine_model_to_json(m);
  const auto at = negative.find("\"oversubscribed_bandwidth\":");
  ASSERT_NE(at, std::string::npos);
  EXPECT_THROW(machine_model_from_json(negative.insert(at + 27, "-"), "test"), std::invalid_argument);
  std::string zero = machine_model_to_json(m);  // 0 written is refused, as in the platform it comes from
  const auto value = zero.find("\"oversubscribed_bandwidth\":") + 27;
  EXPECT_THROW(machine_model_from_json(zero.replace(value, zero.find('}', value) - value, "0"), "test"),
               std::invalid_argument);
}

// Curves over ranks per core (what calibrate measures at each level): run_by reads the link's all-to-all
// bandwidth and the host's copy slowdown at the run's level, and prices with them; a run within the
// cores is unchanged, and the JSON keeps both curves.
TEST(Predict, EachLevelOfRanksPerCoreIsPricedFromItsCurves) {
  MachineModel m = two_hosts();
  m.hosts = 1;
  m.cores = 2;
  m.links = {{1e10, true, 1e6, PiecewiseCurve::parse("0:10e6;2:25e6;3:40e6", false)}};
  m.routes = {{{0}, 0}};
  m.copy_slowdowns = PiecewiseCurve::parse("0:1.5;2:2;3:3", false);
  EXPECT_FALSE(m.run_by(2));
  for (const auto& [ranks, bandwidth, slowdown] :
       std::vector<std::tuple<Index, double, double>>{{3, 10e6, 1.5}, {4, 25e6, 2}, {5, 25e6, 2}, {7, 40e6, 3}}) {
    const auto run = m.run_by(ranks);
    ASSERT_TRUE(run) << ranks;
    EXPECT_EQ(run->message_copy_rate, bandwidth / 2) << ranks;
    EXPECT_EQ(run->copy_slowdown, slowdown) << ranks;
    // Copies slowed, the rest of the work not.
    Work work(WorkKind::ByteCopied, 1000);
    work.add(WorkKind::ElementScanned, 10);
    EXPECT_DOUBLE_EQ(run->run_seconds_for(work, 2), slowdown * 1000 * 1e-9 + 10 * 1e-8);
  }
  // A copy slowdown alone (no oversubscribed bandwidth): messages stay flows, copies are slowed.
  MachineModel slowed_only = m;
  slowed_only.links[0].oversubscribed_bandwidth = 0;
  slowed_only.links[0].oversubscribed_bandwidths = {};
  ASSERT_TRUE(slowed_only.run_by(3));
  EXPECT_EQ(slowed_only.run_by(3)->message_copy_rate, 0);
  EXPECT_EQ(slowed_only.run_by(3)->copy_slowdown, 1.5);
  // The predicted packing of three ranks: 1.5 times that of the model without the curve.
  MachineModel unslowed = m;
  unslowed.copy_slowdowns = {};
  const Layout from = BlockCyclic(400000, 1, 3), to = BlockCyclic(400000, 1000, 3);
  const auto cs = candidates(from, to, RankMap::shared(), {"prylli", "caterpillar", "none"});
  const auto slowed = predict_all_ranks(from, to, 8, RankMap::shared(), cs, m).at(0).phases;
  const auto plain = predict_all_ranks(from, to, 8, RankMap::shared(), cs, unslowed).at(0).phases;
  ASSERT_GT(plain.pack, 0);
  EXPECT_DOUBLE_EQ(slowed.pack, 1.5 * plain.pack);
  EXPECT_DOUBLE_EQ(slowed.unpack, 1.5 * plain.unpack);
  // A work slowdown: the rest of the work, the index phase, by its level's factor; copies as before.
  MachineModel indexing = m;  // index work priced
  for (const WorkKind kind : {WorkKind::IndexOp, WorkKind::RunListed}) indexing.prices.seconds[static_cast<std::size_t>(kind)] = 1e-8;
  MachineModel working = indexing;
  working.work_slowdowns = PiecewiseCurve::parse("0:1.25;2:1.75", false);
  EXPECT_EQ(machine_model_from_json(machine_model_to_json(working), "test"), working);
  EXPECT_EQ(working.run_by(4)->work_slowdown, 1.75);
  Work work(WorkKind::ByteCopied, 1000);
  work.add(WorkKind::ElementScanned, 10);
  EXPECT_DOUBLE_EQ(working.run_by(4)->run_seconds_for(work, 2), 2 * 1000 * 1e-9 + 1.75 * 10 * 1e-8);
  const auto worked = predict_all_ranks(from, to, 8, RankMap::shared(), cs, working).at(0).phases;
  const auto indexed = predict_all_ranks(from, to, 8, RankMap::shared(), cs, indexing).at(0).phases;
  ASSERT_GT(indexed.index, 0);
  EXPECT_DOUBLE_EQ(worked.index, 1.25 * indexed.index);
  EXPECT_DOUBLE_EQ(worked.pack, indexed.pack);
  EXPECT_DOUBLE_EQ(slowed.index, plain.index);
  EXPECT_EQ(machine_model_from_json(machine_model_to_json(m), "test"), m);
  std::string bad = machine_model_to_json(m);
  const auto at = bad.find("0:1.5;2:2;3:3");
  ASSERT_NE(at, std::string::npos);
  EXPECT_THROW(machine_model_from_json(bad.replace(at, 13, "1:1.5"), "test"), std::invalid_argument);
}

// The node's memory in the prediction: copies at min(c(W), M(W) / k), k the ranks of the node at most
// one per core; the JSON keeps the curves; other work keeps its prices.
TEST(Predict, CopiesShareTheNodesMemory) {
  MachineModel m = two_hosts();
  m.hosts = 1;
  m.cores = 4;
  m.links = {{1e10, true}};
  m.routes = {{{0}, 0}};
  m.memory = NodeMemory{PiecewiseCurve::parse("0:2e10;4194304:6e9", false), PiecewiseCurve::parse("0:6e10;4194304:1.5e10", false)};
  EXPECT_EQ(m.copying_with(0, 1), 1);
  EXPECT_EQ(m.copying_with(2, 3), 3);
  EXPECT_EQ(m.copying_with(5, 8), 4);  // eight ranks on four cores: four copy at once
  const Work copy = Work(WorkKind::ByteCopied, Index{8} << 20).add(WorkKind::ElementScanned, 100);
  EXPECT_DOUBLE_EQ(m.seconds_for(copy, 1), (8 << 20) / 6e9 + 100 * 1e-8);
  EXPECT_DOUBLE_EQ(m.seconds_for(copy, 4), (8 << 20) / 3.75e9 + 100 * 1e-8);
  EXPECT_DOUBLE_EQ(m.seconds_for(Work(WorkKind::ByteCopied, 1000), 4), 1000 / 1.5e10);
  EXPECT_EQ(machine_model_from_json(machine_model_to_json(m), "test"), m);
  EXPECT_EQ(machine_model_to_json(m).find("_factor"), std::string::npos);  // factors of 1 are not written
  MachineModel loops = m;  // each loop by its factor on the memory's time; the JSON keeps them
  loops.memory->pack_factor = 1.5;
  loops.memory->unpack_factor = 1.25;
  EXPECT_DOUBLE_EQ(loops.seconds_for(copy, 1), 1.5 * (8 << 20) / 6e9 + 100 * 1e-8);
  EXPECT_DOUBLE_EQ(loops.seconds_for(copy, 1, CopyLoop::Unpack), 1.25 * (8 << 20) / 6e9 + 100 * 1e-8);
  EXPECT_DOUBLE_EQ(loops.seconds_for(copy, 1, CopyLoop::UnpackSweep), 1.25 * (8 << 20) / 6e9 + 100 * 1e-8);
  EXPECT_EQ(machine_model_to_json(loops).find("sweep_factor"), std::string::npos);  // undeclared: the unpack's
  loops.memory->sweep_factor = 1.75;
  EXPECT_DOUBLE_EQ(loops.seconds_for(copy, 1, CopyLoop::UnpackSweep), 1.75 * (8 << 20) / 6e9 + 100 * 1e-8);
  EXPECT_EQ(machine_model_from_json(machine_model_to_json(loops), "test"), loops);
  for (const char* factor : {"\"pack_factor\":1.5", "\"unpack_factor\":1.25", "\"sweep_factor\":1.75"}) {
    std::string bad = machine_model_to_json(loops);
    bad.replace(bad.find(factor), std::string(factor).size(), std::string(factor).substr(0, std::string(factor).find(':') + 1) + "0");
    EXPECT_THROW(machine_model_from_json(bad, "test"), std::invalid_argument) << bad;
  }
  MachineModel without = m;
  without.memory.reset();
  EXPECT_DOUBLE_EQ(without.seconds_for(copy, 4), (8 << 20) * 1e-9 + 100 * 1e-8);
  EXPECT_EQ(machine_model_to_json(without).find("\"memory\""), std::string::npos);
  // A pack phase is one copy of all a rank packs: its messages to the other ranks, whose 8-byte
  // pieces are too short to travel in place (the local part is copied once, with the unpacking):
  // 32 MiB by 2 ranks at 6 GB/s each, 24 MiB by 4 at 3.75.
  const auto pack = [&](Index P) {
    const Layout from = BlockCyclic(Index{16} << 20, 1 << 20, P), to = BlockCyclic(Index{16} << 20, 1, P);
    const auto cs = candidates(from, to, RankMap::shared(), {"prylli", "async", "none"});
    return predict_all_ranks(from, to, 8, RankMap::shared(), cs, m).at(0).phases.pack;
  };
  EXPECT_NEAR(pack(2) / ((32 << 20) / 6e9), 1, 1e-9);
  EXPECT_NEAR(pack(4) / ((24 << 20) / 3.75e9), 1, 1e-9);
}

// Ranks that share memory hand async messages over in place: two barriers, whatever the bytes; a
// scheduled exchange still sends them.
TEST(Predict, SharedMemoryAsyncIsTwoBarriersAndSchedulesStillSend) {
  MachineModel m = two_hosts();
  const Layout from = BlockCyclic(400000, 1, 4), to = BlockCyclic(400000, 1000, 4);
  const auto cs = candidates(from, to, RankMap::shared(), {"prylli", "auto", "none"});
  const auto apart = predict_all_ranks(from, to, 8, RankMap::shared(), cs, m);
  m.shared_memory = true;
  const auto together = predict_all_ranks(from, to, 8, RankMap::shared(), cs, m);
  for (std::size_t k = 0; k < cs.size(); ++k) {
    if (cs[k].schedule == "async") {
      EXPECT_DOUBLE_EQ(together[k].phases.comm, 2 * barrier_seconds(4, m));
      EXPECT_LT(together[k].phases.total, apart[k].phases.total);
    } else {
      EXPECT_DOUBLE_EQ(together[k].phases.total, apart[k].phases.total) << cs[k].schedule;
    }
  }
  EXPECT_EQ(machine_model_from_json(machine_model_to_json(m), "test"), m);
}

// In shared memory an async candidate copies each rank's local part once, in the sweep of its finer
// side (exchange_shared_memory, on MPI and in the simulator); a scheduled one packs and unpacks it as a
// message to itself.
TEST(PredictLocal, SharedMemoryAsyncCopiesTheLocalPartOnce) {
  MachineModel m = two_hosts();
  m.prices.seconds[static_cast<std::size_t>(WorkKind::RunCopied)] = 2e-8;
  m.prices.seconds[static_cast<std::size_t>(WorkKind::RecordCopied)] = 3e-9;
  m.shared_memory = true;
  const WorkAccounting& a = redist_work_accounting();
  int kept_somewhere = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const auto pick = [&](std::uint64_t k, Index n) { return 1 + static_cast<Index>(splitmix64(seed * 8 + k) % n); };
    const Index P = pick(0, 5), Q = pick(1, 5), N = pick(2, 5000);
    const Layout from = BlockCyclic(N, pick(3, 9), P), to = BlockCyclic(N, pick(4, 9), Q);
    const std::vector<Candidate> cs = {{"prylli", "async", RelabelMethod::None}, {"prylli", "caterpillar", RelabelMethod::None}};
    for (Index me = 0; me < std::max(P, Q); ++me) {
      Work counted;
      const RankPlan plan = make_plan(indexing_method("prylli"), from, to, RankMap::shared(), static_cast<Rank>(me), true, counted);
      const LocalPart local = local_part(plan, static_cast<Rank>(me));
      Work pack, unpack, once_pack, once_unpack;
      for (const PeerPlan& s : plan.sends) {
        pack += a.pack(s, 8);
        if (&s != local.send) once_pack += a.pack(s, 8);
      }
      for (const PeerPlan& r : plan.receives) {
        unpack += a.unpack(r, 8);
        if (&r != local.receive) once_unpack += a.unpack(r, 8);
      }
      if (!local.empty()) {
        ++kept_somewhere;
        (local_part_in_unpack(*local.send, *local.receive, 8) ? once_unpack : once_pack) +=
            local_copy_work(*local.send, *local.receive, 8);
      }
      const auto got = predict_local(from, to, 8, RankMap::shared(), cs, m, static_cast<Rank>(me));
      EXPECT_DOUBLE_EQ(got[0].pack, m.prices.seconds_for(once_pack)) << "seed " << seed << " rank " << me;
      EXPECT_DOUBLE_EQ(got[0].unpack, m.prices.seconds_for(once_unpack)) << "seed " << seed << " rank " << me;
      EXPECT_DOUBLE_EQ(got[1].pack, m.prices.seconds_for(pack)) << "seed " << seed << " rank " << me;
      EXPECT_DOUBLE_EQ(got[1].unpack, m.prices.seconds_for(unpack)) << "seed " << seed << " rank " << me;
    }
  }
  EXPECT_GT(kept_somewhere, 40);
}

TEST(MachineModelJson, RoundTripsAndRefusesBadModels) {
  MachineModel m = two_hosts();
  EXPECT_EQ(machine_model_from_json(machine_model_to_json(m), "test"), m);
  m.cores = 4;
  EXPECT_EQ(machine_model_from_json(machine_model_to_json(m), "test").cores, 4);
  std::string no_cores = machine_model_to_json(m);  // a model written before hosts had cores
  no_cores.replace(no_cores.find("\"cores\":4,"), 10, "");
  EXPECT_EQ(machine_model_from_json(no_cores, "test").cores, 1);
  std::string zero = machine_model_to_json(m);
  EXPECT_THROW(machine_model_from_json(zero.replace(zero.find("\"cores\":4"), 9, "\"cores\":0"), "test"),
               std::invalid_argument);
  m.cores = 1;
  for (const char* bad : {"{", "{}", R"({"hosts": 1})"}) {
    EXPECT_THROW(machine_model_from_json(bad, "bad.json"), std::invalid_argument) << bad;
  }
  std::string text = machine_model_to_json(m);
  const auto at = text.find("\"hosts\":2");
  ASSERT_NE(at, std::string::npos);
  EXPECT_THROW(machine_model_from_json(text.replace(at, 9, "\"hosts\":3"), "test"), std::invalid_argument);
}

}  // namespace
}  // namespace redist
