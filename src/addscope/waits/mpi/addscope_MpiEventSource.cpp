#include "addscope/waits/mpi/addscope_MpiEventSource.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "addscope/core/addscope_OutputFile.hpp"
#include "addscope/core/addscope_OutputPath.hpp"
#include "addscope/waits/addscope_SyncTracker.hpp"
#include "addscope/waits/addscope_WaitsClock.hpp"
#include "addscope/waits/addscope_WaitsSettings.hpp"
#include "addscope/waits/analyze/addscope_CrossRankWaits.hpp"
#include "addscope/waits/output/addscope_TraceMerge.hpp"
#include "addscope/waits/output/addscope_MergedReport.hpp"

namespace addscope {
namespace waits_mpi {

namespace {

using nlohmann::json;
constexpr std::size_t kRing = std::size_t(1) << 18;  // collectives kept
constexpr std::size_t kCandidates = 256;  // per rank, longest collectives
constexpr std::size_t kInstances = 512;   // examined on all ranks
constexpr std::size_t kRankWaits = 64;    // each rank's waits sent to rank 0
constexpr std::uint64_t kMaxTraceBytes = std::uint64_t(64) << 20;

SyncTracker& tracker() { return SyncTracker::global(); }
std::thread::id main_thread;

/// Every rank's string on rank 0 (empty elsewhere).
std::vector<std::string> gather_strings(const std::string& mine, int rank,
                                        int ranks) {
  long long len = (long long)mine.size();
  std::vector<long long> lens(static_cast<std::size_t>(ranks));
  PMPI_Gather(&len, 1, MPI_LONG_LONG, lens.data(), 1, MPI_LONG_LONG, 0,
              MPI_COMM_WORLD);
  long long total = 0;
  for (auto l : lens) total += l;
  int ok = total < (1ll << 30) ? 1 : 0;
  PMPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<std::string> out;
  if (!ok) {
    if (rank == 0) out.assign(std::size_t(ranks), std::string());
    return out;
  }
  std::vector<int> counts(static_cast<std::size_t>(ranks)),
      displs(static_cast<std::size_t>(ranks));
  int at = 0;
  for (int r = 0; r < ranks; ++r) {
    counts[std::size_t(r)] = int(lens[std::size_t(r)]);
    displs[std::size_t(r)] = at;
    at += counts[std::size_t(r)];
  }
  std::vector<char> all(std::size_t(at) + 1);
  PMPI_Gatherv(mine.data(), int(mine.size()), MPI_CHAR, all.data(),
               counts.data(), displs.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int r = 0; r < ranks; ++r)
      out.emplace_back(all.data() + displs[std::size_t(r)],
                       std::size_t(counts[std::size_t(r)]));
  return out;
}

std::string broadcast_string(std::string s, int rank) {
  long long len = rank == 0 ? (long long)s.size() : 0;
  PMPI_Bcast(&len, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  s.resize(std::size_t(len));
  if (len > 0) PMPI_Bcast(&s[0], int(len), MPI_CHAR, 0, MPI_COMM_WORLD);
  return s;
}

/// `pattern` (ADDSCOPE_WAITS_JSON/TRACE) for the merged file: %r becomes
/// "merged"; without %r, ".merged" goes before the extension.
std::string merged_path(std::string pattern) {
  const auto r = pattern.find("%r");
  if (r != std::string::npos) {
    pattern.replace(r, 2, "merged");
  } else {
    const auto slash = pattern.find_last_of('/');
    const auto dot = pattern.find_last_of('.');
    if (dot != std::string::npos && (slash == std::string::npos || dot > slash))
      pattern.insert(dot, ".merged");
    else
      pattern += ".merged";
  }
  return expand_output_path(pattern);
}

bool write_whole(const std::string& path, const std::string& text) {
  std::string why;
  if (write_file_atomically(path, text, &why)) return true;
  std::cerr << "addscope waits: " << why << "\n";
  return false;
}

// A number in a line another rank sent; false if it is none.
bool to_u64(const std::string& s, std::uint64_t* v) {
  char* end = nullptr;
  *v = std::strtoull(s.c_str(), &end, 10);
  return !s.empty() && end && *end == '\0';
}
bool to_double(const std::string& s, double* v) {
  char* end = nullptr;
  *v = std::strtod(s.c_str(), &end);
  return !s.empty() && end && *end == '\0';
}

std::string env(const char* name) {
  const char* v = waits_setting(name);
  return v ? v : "";
}

}  // namespace

MpiEventSource& MpiEventSource::global() {
  static MpiEventSource* s = new MpiEventSource();  // never destroyed
  return *s;
}

void MpiEventSource::after_init() {
  std::lock_guard<std::mutex> g(mu_);
  if (initialized_) return;
  main_thread = std::this_thread::get_id();
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  PMPI_Comm_size(MPI_COMM_WORLD, &ranks_);
  MPI_Comm node;
  PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                       &node);
  int node_ranks = 1;
  PMPI_Comm_size(node, &node_ranks);
  PMPI_Comm_free(&node);
  int one = node_ranks == ranks_ ? 1 : 0, all_one = 0;
  PMPI_Allreduce(&one, &all_one, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  one_node_ = all_one == 1;
  // The time base: rank 0's tracker clock.
  const long long epoch = (long long)SteadyWaitsClock().epoch_ns();
  PMPI_Barrier(MPI_COMM_WORLD);
  double sync = tracker().now();
  long long epoch0 = epoch;
  double sync0 = sync;
  PMPI_Bcast(&epoch0, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  PMPI_Bcast(&sync0, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  offset_s_ = one_node_ ? double(epoch - epoch0) * 1e-9 : sync0 - sync;
  initialized_ = true;
  if (rank_ == 0)
    for (const char* v : {"ADDSCOPE_WAITS_JSON", "ADDSCOPE_WAITS_TRACE"}) {
      const std::string p = env(v);
      if (!p.empty() && p.find("%r") == std::string::npos && ranks_ > 1)
        std::cerr << "addscope waits: " << v << "=" << p
                  << " has no %r: every rank writes that one file; use %r "
                     "for the rank (e.g. waits.%r.json)\n";
    }
}

std::uint32_t MpiEventSource::comm_index(MPI_Comm comm) {
  auto it = comm_of_handle_.find(comm);
  if (it != comm_of_handle_.end()) return it->second;
  std::string key, text;
  if (comm == MPI_COMM_WORLD) {
    key = text = "MPI_COMM_WORLD";
  } else if (comm == MPI_COMM_SELF) {
    key = text = "MPI_COMM_SELF";
  } else {
    // The world ranks of its group name it on every rank; communicators of
    // one group are told apart in the order each rank first uses them.
    MPI_Group group, world;
    PMPI_Comm_group(comm, &group);
    PMPI_Comm_group(MPI_COMM_WORLD, &world);
    int n = 0;
    PMPI_Group_size(group, &n);
    std::vector<int> in(static_cast<std::size_t>(n)),
        out(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) in[std::size_t(i)] = i;
    PMPI_Group_translate_ranks(group, n, in.data(), world, out.data());
    PMPI_Group_free(&group);
    PMPI_Group_free(&world);
    std::string members;
    for (int i = 0; i < n && i < 8; ++i)
      members += (i ? "," : "") + std::to_string(out[std::size_t(i)]);
    if (n > 8) members += ",...";
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the ranks
    for (int v : out) {
      h ^= std::uint64_t(std::uint32_t(v));
      h *= 1099511628211ull;
    }
    const std::string group_key = std::to_string(n) + ":" + std::to_string(h);
    const int k = same_group_count_[group_key]++;
    key = group_key + "#" + std::to_string(k);
    text = "communicator of " + std::to_string(n) + " ranks (" + members + ")" +
           (k ? " #" + std::to_string(k + 1) : "");
  }
  const std::uint32_t idx = std::uint32_t(comm_names_.size());
  comm_names_.push_back(key);
  comm_text_.push_back(text);
  comm_seq_.push_back(0);
  comm_of_handle_[comm] = idx;
  return idx;
}

std::uint32_t MpiEventSource::name_index(const char* name) {
  for (std::size_t i = 0; i < call_names_.size(); ++i)
    if (call_names_[i] == name) return std::uint32_t(i);
  call_names_.push_back(name);
  return std::uint32_t(call_names_.size() - 1);
}

std::uint64_t MpiEventSource::begin(const char* name, MPI_Comm comm,
                                    bool collective, std::uint64_t bytes) {
  std::lock_guard<std::mutex> g(mu_);
  if (!initialized_ || finalized_) return 0;
  Open o;
  o.collective = collective;
  o.name = name_index(name);
  std::string what = name;
  if (comm != MPI_COMM_NULL) {
    o.comm = comm_index(comm);
    what += " (" + comm_text_[o.comm];
    if (bytes) what += ", " + format_bytes(bytes);
    what += ")";
    if (collective) o.seq = ++comm_seq_[o.comm];
  }
  o.main_thread = std::this_thread::get_id() == main_thread;
  o.call = tracker().call_begin(CallKind::Mpi, what, ExecId(), name);
  o.enter_s = tracker().now();
  const std::uint64_t token = next_token_++;
  open_[token] = o;
  return token;
}

void MpiEventSource::end(std::uint64_t token) {
  if (token == 0) return;
  std::lock_guard<std::mutex> g(mu_);
  auto it = open_.find(token);
  if (it == open_.end()) return;
  const Open o = it->second;
  open_.erase(it);
  const double exit_s = tracker().now();
  tracker().call_end(o.call);
  ++calls_;
  mpi_s_ += exit_s - o.enter_s;
  if (!o.collective) return;
  if (ring_.size() < kRing) ring_.emplace_back();
  Record& r = ring_[ring_next_];
  r.comm = o.comm;
  r.name = o.name;
  r.seq = o.seq;
  r.enter_s = o.enter_s;
  r.exit_s = exit_s;
  ring_next_ = (ring_next_ + 1) % kRing;
  if (ring_next_ == 0) ring_full_ = true;
}

// Each rank's longest collectives to rank 0, which picks the instances to
// look at on every rank and tells them all (collective). Each instance's
// comm is "<key>\t<text>" until rank 0 splits it.
std::vector<CollectiveInstance> MpiEventSource::agree_on_instances(
    double min_wait) {
  const int rank = rank_, ranks = ranks_;
  const std::size_t kept = ring_.size();
  std::vector<std::size_t> order(kept);
  for (std::size_t i = 0; i < kept; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return ring_[a].exit_s - ring_[a].enter_s >
           ring_[b].exit_s - ring_[b].enter_s;
  });
  std::ostringstream cand;
  for (std::size_t i = 0; i < order.size() && i < kCandidates; ++i) {
    const Record& r = ring_[order[i]];
    if (r.exit_s - r.enter_s < min_wait) break;
    cand << comm_names_[r.comm] << '\t' << r.seq << '\t' << call_names_[r.name]
         << '\t' << comm_text_[r.comm] << '\t' << (r.exit_s - r.enter_s)
         << '\n';
  }
  const auto cands = gather_strings(cand.str(), rank, ranks);
  std::string wanted;
  if (rank == 0) {
    struct C {
      std::string line;
      double dur;
    };
    std::map<std::pair<std::string, std::uint64_t>, C> u;
    for (const auto& text : cands) {
      std::istringstream in(text);
      std::string line;
      while (std::getline(in, line)) {
        std::istringstream f(line);
        std::string key, seq, name, ctext, dur;
        std::getline(f, key, '\t');
        std::getline(f, seq, '\t');
        std::getline(f, name, '\t');
        std::getline(f, ctext, '\t');
        std::getline(f, dur, '\t');
        std::uint64_t sq = 0;
        double d = 0;
        if (!to_u64(seq, &sq) || !to_double(dur, &d)) continue;  // garbled
        auto& c = u[{key, sq}];
        if (c.line.empty() || d > c.dur)
          c = {key + '\t' + seq + '\t' + name + '\t' + ctext, d};
      }
    }
    std::vector<C> v;
    for (auto& e : u) v.push_back(e.second);
    std::sort(v.begin(), v.end(),
              [](const C& a, const C& b) { return a.dur > b.dur; });
    if (v.size() > kInstances) v.resize(kInstances);
    for (const auto& c : v) wanted += c.line + '\n';
  }
  wanted = broadcast_string(wanted, rank);

  std::vector<CollectiveInstance> inst;
  {
    std::istringstream in(wanted);
    std::string line;
    while (std::getline(in, line)) {
      std::istringstream f(line);
      CollectiveInstance c;
      std::string key, seq;
      std::getline(f, key, '\t');
      std::getline(f, seq, '\t');
      std::getline(f, c.name, '\t');
      std::getline(f, c.comm, '\t');
      if (!to_u64(seq, &c.seq)) continue;
      c.present.assign(std::size_t(ranks), false);
      c.enter_s.assign(std::size_t(ranks), 0);
      c.exit_s.assign(std::size_t(ranks), 0);
      inst.push_back(c);
      inst.back().comm = key + '\t' + c.comm;  // split below
    }
  }
  return inst;
}

// This rank's enter and exit of each instance on the shared base (NaN
// where it has none), gathered on rank 0: 2 x instances per rank, rank by
// rank (collective; the result is rank 0's only).
std::vector<double> MpiEventSource::gather_instance_times(
    const std::vector<CollectiveInstance>& inst) {
  const int rank = rank_, ranks = ranks_;
  const std::size_t kept = ring_.size();
  std::map<std::pair<std::string, std::uint64_t>, const Record*> mine;
  for (std::size_t i = 0; i < kept; ++i)
    mine[{comm_names_[ring_[i].comm], ring_[i].seq}] = &ring_[i];
  std::vector<double> times(2 * inst.size(), NAN);
  for (std::size_t i = 0; i < inst.size(); ++i) {
    const std::string& kc = inst[i].comm;
    const std::string key = kc.substr(0, kc.find('\t'));
    auto it = mine.find({key, inst[i].seq});
    if (it == mine.end()) continue;
    times[2 * i] = it->second->enter_s + offset_s_;
    times[2 * i + 1] = it->second->exit_s + offset_s_;
  }
  std::vector<double> all_times(rank == 0 ? times.size() * std::size_t(ranks)
                                          : 1);
  PMPI_Gather(times.data(), int(times.size()), MPI_DOUBLE, all_times.data(),
              int(times.size()), MPI_DOUBLE, 0, MPI_COMM_WORLD);

  return all_times;
}

// Each rank's trace file, gathered on rank 0 when every rank has one
// (collective); else `note` may say why not.
std::vector<std::string> MpiEventSource::gather_traces(
    const WaitsSnapshot& snap, bool want_trace, bool tool_done,
    std::string* trace_note, bool* all_ok) {
  std::string trace_text;
  if (want_trace) {
    if (!tool_done) {
      *trace_note =
          "the trace was still open (Kokkos::finalize comes after "
          "MPI_Finalize in this program)";
    } else if (!snap.trace_path.empty()) {
      std::ifstream f(snap.trace_path, std::ios::binary);
      std::ostringstream s;
      s << f.rdbuf();
      trace_text = s.str();
      if (trace_text.size() > kMaxTraceBytes) {
        trace_text.clear();
        *trace_note = "a rank's trace is larger than 64 MiB";
      }
    }
  }
  int trace_ok = want_trace && !trace_text.empty() ? 1 : 0, ok = 0;
  PMPI_Allreduce(&trace_ok, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  *all_ok = ok != 0;
  std::vector<std::string> traces;
  if (ok) traces = gather_strings(trace_text, rank_, ranks_);
  return traces;
}

void MpiEventSource::before_finalize() {
  std::unique_lock<std::mutex> g(mu_);
  if (!initialized_ || finalized_) return;
  finalized_ = true;
  g.unlock();
  const int rank = rank_, ranks = ranks_;
  const double min_wait = one_node_ ? 10e-6 : 100e-6;
  tracker().flush();
  const bool tool_done = !tracker().fed_by_kokkos_tools();
  const WaitsSnapshot snap = tracker().snapshot();
  const std::size_t kept = ring_.size();

  // 1. Rank 0 picks the instances to look at on every rank; 2. every
  // rank's enter and exit of those, on the shared base, to rank 0.
  std::vector<CollectiveInstance> inst = agree_on_instances(min_wait);
  const std::vector<double> all_times = gather_instance_times(inst);
  const std::size_t per_rank = 2 * inst.size();

  // 3. Each rank's own account: its waits (longest first) and totals.
  RankCounters counters;
  counters.rank = rank;
  counters.mpi_calls = calls_;
  counters.mpi_s = mpi_s_;
  counters.collectives_kept = kept;
  counters.collectives_dropped = ring_full_;
  counters.offset_s = offset_s_;
  counters.max_waits = kRankWaits;
  const json acc = rank_account(snap, counters);
  const auto accounts = gather_strings(acc.dump(), rank, ranks);

  // 4. Each rank's trace (closed by the tool at Kokkos::finalize).
  const bool want_trace = !env("ADDSCOPE_WAITS_TRACE").empty();
  std::string trace_note;
  bool all_ok = false;
  const std::vector<std::string> traces =
      gather_traces(snap, want_trace, tool_done, &trace_note, &all_ok);
  if (rank != 0) return;

  // ---- rank 0: the merged report ------------------------------------------
  std::vector<RankWaits> rw(static_cast<std::size_t>(ranks));
  std::vector<json> accs;
  for (int r = 0; r < ranks; ++r) {
    json a = json::parse(accounts[std::size_t(r)], nullptr, false);
    if (a.is_discarded() || !a.is_object()) a = json::object();
    RankWaits& w = rw[std::size_t(r)];
    w.mode = a["mode"].get<std::string>();
    for (const auto& c : a["waits"]) {
      RankWaitCall x;
      x.begin_s = c["begin_s"];
      x.end_s = c["end_s"];
      x.wait_s = c["wait_s"];
      x.what = c["what"];
      x.kernel = c["kernel"];
      x.wait_class = c["class"];
      x.bound = c["bound"];
      x.at = c.value("at", "");
      w.waits.push_back(x);
    }
    accs.push_back(a);
  }
  for (std::size_t i = 0; i < inst.size(); ++i) {
    const std::string kc = inst[i].comm;
    inst[i].comm = kc.substr(kc.find('\t') + 1);
    for (int r = 0; r < ranks; ++r) {
      const double e = all_times[std::size_t(r) * per_rank + 2 * i];
      const double x = all_times[std::size_t(r) * per_rank + 2 * i + 1];
      if (std::isnan(e)) continue;
      inst[i].present[std::size_t(r)] = true;
      inst[i].enter_s[std::size_t(r)] = e;
      inst[i].exit_s[std::size_t(r)] = x;
    }
  }
  // The ranks' traces on one clock: what each rank's host was in, for the
  // explanations, and the merged file.
  json events = json::array();
  std::string trace_line;
  bool merged_ok = false;
  const std::string trace_path =
      want_trace ? merged_path(env("ADDSCOPE_WAITS_TRACE")) : std::string();
  if (want_trace && !all_ok) {
    trace_line = "  merged trace: not written (" +
                 (trace_note.empty() ? std::string("a rank wrote no trace")
                                     : trace_note) +
                 ")\n";
  } else if (want_trace) {
    merged_ok = true;
    for (int r = 0; r < ranks && merged_ok; ++r) {
      const std::size_t first = events.size();
      try {
        merge_rank_trace(traces[std::size_t(r)], r, ranks,
                         accs[std::size_t(r)]["offset_s"].get<double>() * 1e6,
                         events);
      } catch (const std::exception& e) {
        trace_line = "  merged trace: rank " + std::to_string(r) +
                     "'s trace is unreadable (" + e.what() + ")\n";
        merged_ok = false;
        break;
      }
      for (std::size_t k = first; k < events.size(); ++k) {
        const json& e = events[k];
        if (e.value("ph", "") != "X" || e.value("pid", 0) != merged_pid(r, 1))
          continue;
        const std::string cat = e.value("cat", "");
        if (cat == "mpi" || cat == "region") continue;
        RankWaitCall c;
        c.begin_s = e.value("ts", 0.0) * 1e-6;
        c.end_s = c.begin_s + e.value("dur", 0.0) * 1e-6;
        c.what = e.value("name", "");
        c.wait_class = cat;
        rw[std::size_t(r)].busy.push_back(c);
      }
    }
  }
  CrossRankOptions opt;
  opt.min_wait_s = min_wait;
  opt.top = 10;
  MergedReport m;
  m.ranks = ranks;
  m.one_node = one_node_;
  m.min_wait_s = min_wait;
  m.accounts = accs;
  m.instances = inst;
  m.top = cross_rank_waits(inst, rw, opt);
  CrossRankOptions every = opt;
  every.top = std::size_t(-1);
  m.waits = cross_rank_waits(inst, rw, every);
  const auto& all_waits = m.waits;
  std::ostringstream os;
  os << merged_report_text(m);
  json merged = merged_report_json(m);

  if (merged_ok) {
    std::uint64_t id = std::uint64_t(1) << 40;
    for (const auto& w : all_waits)
      add_rank_flow(events, id++,
                    "waited for rank " + std::to_string(w.for_rank), w.for_rank,
                    w.enter_s + w.gap_s + 1e-7, w.rank,
                    w.enter_s + w.duration_s - 1e-7);
    if (write_whole(trace_path, events.dump() + "\n")) {
      trace_line =
          "  merged trace: " + trace_path + " (one process per rank)\n";
      merged["trace"] = trace_path;
    } else {
      trace_line = "  merged trace: cannot write " + trace_path + "\n";
    }
  }
  os << trace_line;
  const std::string jpattern = env("ADDSCOPE_WAITS_JSON");
  if (!jpattern.empty()) {
    const std::string path = merged_path(jpattern);
    if (write_whole(path, merged.dump(2) + "\n"))
      os << "  merged JSON: " << path << "\n";
    else
      os << "  merged JSON: cannot write " << path << "\n";
  }
  std::cerr << os.str();
  std::cerr.flush();
}

}  // namespace waits_mpi
}  // namespace addscope
