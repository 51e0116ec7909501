// redist._mpi, behind redist.mpi (python/redist/mpi.py): numpy arrays redistributed over an mpi4py
// communicator by redist::mpi's redistribute() and Plan, in place. Before any data moves, every rank
// agrees on what Python adds to the C++ call (arrays usable without a copy, one dtype everywhere,
// options that parse, descriptors' LLD_; redist/mpi/agreement.hpp: two MPI_Allreduce for a
// redistribute(), one for an execution of a Plan, whose dtype was agreed when it was made), so that
// a bad array on one rank raises the same ValueError on every rank and none is left waiting; redist's
// own checks (sizes, layouts, names) then raise as they do in C++. The GIL is released while ranks
// agree, plan and move data.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "call_options.hpp"
#include "mpi4py_communicator.hpp"
#include "numpy_buffers.hpp"
#include "python_layout.hpp"
#include "redist/mpi/agreement.hpp"
#include "redist/mpi/plan.hpp"
#include "redist/mpi/redistribute.hpp"
#include "redist/redistribute/input_checks.hpp"
#include "redist/redistribute/redistribution_plan.hpp"

namespace py = pybind11;

namespace redist::python {
namespace {

int rank_of(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

// The first of several checks' complaints, or empty.
std::string first_problem(std::initializer_list<std::string> problems) {
  for (const std::string& p : problems) {
    if (!p.empty()) return p;
  }
  return "";
}

// The processor `layout` gives rank `rank` as a destination, when the options say (no relabelling).
std::optional<Index> dest_processor(const mpi::Options& options, int rank, const Layout& dest) {
  if (options.relabel != "none") return std::nullopt;
  return options.ranks.dest_of(rank, dest.processors());
}

py::dict report_dict(const RedistributeReport& report) {
  py::dict out;
  out["index"] = report.phases.index;
  out["pack"] = report.phases.pack;
  out["comm"] = report.phases.comm;
  out["unpack"] = report.phases.unpack;
  out["total"] = report.phases.total;
  out["messages_sent"] = report.messages_sent;
  out["bytes_sent"] = report.bytes_sent;
  out["bytes_kept"] = report.bytes_kept;
  out["bytes_copied_once"] = report.bytes_copied_once;
  return out;
}

py::dict redistribute_arrays(const py::handle& comm_object, const PythonLayout& source, const PythonLayout& dest,
                      const py::handle& a, const py::handle& b, const py::kwargs& options) {
  const MPI_Comm comm = communicator(comm_object);
  const int rank = rank_of(comm);
  CallOptions call = call_options(options, source.layout);
  const ArrayBuffer from = array_buffer(a, "source array", source.order, false);
  const ArrayBuffer to = array_buffer(b, "destination array", dest.order, true);
  const std::string problem = first_problem(
      {call.problem, from.problem, to.problem, same_type_problem(from, to),
       source.leading_dimension_problem("source", call.options.ranks.source_of(rank, source.layout.processors())),
       dest.leading_dimension_problem("destination", dest_processor(call.options, rank, dest.layout))});
  call.options.elem_bytes = std::max<Index>(from.item_bytes, 1);
  RedistributeReport report;
  {
    py::gil_scoped_release moving;
    // Each rank's own complaint first (it says more than "different types"), then one dtype everywhere.
    mpi::agree_on_problems(comm, problem);
    mpi::agree_on_input(comm, from.type, "", "array types");
    report = mpi::redistribute(comm, source.layout, dest.layout, from.bytes, to.bytes, call.options);
  }
  return report_dict(report);
}

// A Plan over its own duplicate of the caller's communicator (for the agreement on each execution's
// arrays), with the dtype it moves.
class PythonPlan {
 public:
  PythonPlan(const py::handle& comm_object, PythonLayout source, PythonLayout dest, const py::handle& dtype,
             const py::kwargs& options)
      : source_(std::move(source)), dest_(std::move(dest)), type_(dtype_buffer(dtype)) {
    const MPI_Comm comm = communicator(comm_object);
    CallOptions call = call_options(options, source_.layout);
    call.options.elem_bytes = std::max<Index>(type_.item_bytes, 1);
    const std::string problem = first_problem({call.problem, type_.problem});
    py::gil_scoped_release planning;
    MPI_Comm_dup(comm, &comm_);
    rank_ = rank_of(comm_);
    try {
      mpi::agree_on_problems(comm_, problem);
      mpi::agree_on_input(comm_, type_.type, "", "plan dtypes");
      plan_ = std::make_unique<mpi::Plan>(comm_, source_.layout, dest_.layout, call.options);
    } catch (...) {
      MPI_Comm_free(&comm_);  // a constructor that throws has no destructor run
      throw;
    }
  }
  ~PythonPlan() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized && comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  }
  PythonPlan(const PythonPlan&) = delete;
  PythonPlan& operator=(const PythonPlan&) = delete;

  py::dict execute(const py::handle& a, const py::handle& b) {
    const ArrayBuffer from = array_buffer(a, "source array", source_.order, false);
    const ArrayBuffer to = array_buffer(b, "destination array", dest_.order, true);
    const RedistributionPlan& planned = plan_->planned();
    std::string problem = first_problem({from.problem, to.problem, type_problem(from), type_problem(to),
                                         source_.leading_dimension_problem("source", source_processor()),
                                         dest_.leading_dimension_problem("destination", dest_processor())});
    if (problem.empty()) {
      problem = buffer_problem(planned.source_elements, planned.dest_elements, planned.options.elem_bytes, from.bytes,
                               to.bytes);
    }
    RedistributeReport report;
    {
      py::gil_scoped_release moving;
      // The buffers' one agreement (Plan::execute would spend another): then the move alone.
      mpi::agree_on_problems(comm_, problem);
      report = plan_->execute_agreed(from.bytes, to.bytes);
    }
    return report_dict(report);
  }

  py::dict options() const {
    const mpi::Options& o = plan_->options();
    py::dict out;
    out["indexing"] = o.indexing;
    out["schedule"] = o.schedule;
    out["relabel"] = o.relabel;
    return out;
  }
  std::optional<Index> source_processor() const {
    return plan_->options().ranks.source_of(rank_, source_.layout.processors());
  }
  std::optional<Index> dest_processor() const { return plan_->options().ranks.dest_of(rank_, dest_.layout.processors()); }
  double plan_seconds() const { return plan_->plan_seconds(); }
  py::dtype dtype() const { return py::dtype(type_.type_name); }

 private:
  std::string type_problem(const ArrayBuffer& array) const {
    if (array.type == 0 || array.type == type_.type) return "";
    return "an array of dtype " + array.type_name + " given to a plan for " + type_.type_name;
  }

  PythonLayout source_, dest_;
  ArrayBuffer type_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  std::unique_ptr<mpi::Plan> plan_;
};

}  // namespace
}  // namespace redist::python

PYBIND11_MODULE(_mpi, m) {
  using namespace redist;
  using namespace redist::python;
  m.doc() = "redist's MPI redistribution of numpy arrays (use redist.mpi)";

  py::class_<PythonLayout>(m, "Layout", R"(How an array is spread over processors. Made by the static methods
scalapack(), descriptor() and block_cyclic(); processor p of a layout is rank p of the communicator
(with placement='disjoint', destination processor q is rank P + q).)")
      .def_static("scalapack", &PythonLayout::scalapack, py::arg("m"), py::arg("n"), py::arg("mb"), py::arg("nb"),
                  py::arg("grid_rows"), py::arg("grid_cols"), py::arg("rsrc") = 0, py::arg("csrc") = 0,
                  py::arg("order") = "F")
      .def_static("descriptor", &PythonLayout::descriptor, py::arg("descriptor"), py::arg("grid_rows"),
                  py::arg("grid_cols"))
      .def_static("block_cyclic", &PythonLayout::block_cyclic, py::arg("size"), py::arg("block"),
                  py::arg("processors"), py::arg("first") = 0)
      .def_property_readonly("processors", [](const PythonLayout& l) { return l.layout.processors(); })
      .def_property_readonly("size", [](const PythonLayout& l) { return l.layout.size(); })
      .def_property_readonly("order",
                             [](const PythonLayout& l) { return l.order == StorageOrder::ColumnMajor ? "F" : "C"; })
      .def("local_shape", [](const PythonLayout& l, Index p) { return py::tuple(py::cast(l.local_shape(p))); },
           py::arg("processor"))
      .def("local_size",
           [](const PythonLayout& l, Index p) {
             l.local_shape(p);  // refuses a processor outside the layout
             return l.layout.local_size(p);
           },
           py::arg("processor"))
      .def("global_indices", &PythonLayout::global_indices, py::arg("processor"))
      .def("__repr__", &PythonLayout::description);

  m.def("redistribute", &redistribute_arrays, py::arg("comm"), py::arg("source"), py::arg("dest"), py::arg("a"), py::arg("b"));

  py::class_<PythonPlan>(m, "Plan")
      .def(py::init<const py::handle&, PythonLayout, PythonLayout, const py::handle&, const py::kwargs&>(),
           py::arg("comm"), py::arg("source"), py::arg("dest"), py::arg("dtype"))
      .def("execute", &PythonPlan::execute, py::arg("a"), py::arg("b"))
      .def_property_readonly("options", &PythonPlan::options)
      .def_property_readonly("source_processor", &PythonPlan::source_processor)
      .def_property_readonly("dest_processor", &PythonPlan::dest_processor)
      .def_property_readonly("plan_seconds", &PythonPlan::plan_seconds)
      .def_property_readonly("dtype", &PythonPlan::dtype);

  m.def("release_buffers", [] { mpi::release_buffers(); });
  m.attr("moved_types") = kMovedTypes;
}
