"""redist from Python: the simulator's answers as records, and (redist.mpi) numpy arrays redistributed
over mpi4py communicators.

    import redist
    runs = redist.simulate(platform=redist.platform_file("sp2"), P=4, Q=4, r=3, s=5, N=10**6, indexing="krr")
    candidates = redist.explain(platform=redist.platform_file("sp2"), P=4, Q=4, r=3, s=5, N=10**6)
    records = redist.sweep("scenarios/sweeps/some-sweep.yaml")
    import pandas; pandas.DataFrame(records)

Every function returns a list of records (flat dicts, see redist.records) with the fields of the JSON
the `redist` command prints for the same arguments, and raises ValueError or RuntimeError with the
command's message on bad input (python/README.md).
"""
import json
import os
import tempfile

from . import _simulator
from .records import explanation_records, scenario_records, simulation_records

__all__ = ["simulate", "explain", "sweep", "replay", "platform_file", "repository_root", "simulate_parameters"]


def platform_file(name):
    """The path of a platform: a file, or a name in the repository's platforms/ ("sp2", "sp2.xml")."""
    return _simulator.platform_file(os.fspath(name))


def repository_root():
    """Where scenarios/ and platforms/ are read: the current folder when it is a checkout, else the source tree."""
    return _simulator.repository_root()


def simulate_parameters():
    """The keyword parameters of simulate(): the redistribute experiment's, as `redist simulate` takes them."""
    return list(_simulator.experiment_parameters())


def simulate(platform, *, payload="auto", trace=None, **params):
    """`redist simulate --platform PLATFORM --json` with the redistribute experiment's parameters as keywords
    (P, Q, r, s, N, elem_bytes, indexing, schedule, placement, relabel, hosts, sources, repeat, work, ...:
    simulate_parameters()). payload: auto, real or phantom; trace: a Paje trace file to write.
    Returns [record], the run: platform, P, Q, r, s, N, phases.index ... phases.total, messages, bytes,
    verified, elem_bytes, indexing, schedule, placement, phantom (and repeat, relabel.* when asked)."""
    text = _simulator.simulate(os.fspath(platform), params, payload, os.fspath(trace) if trace else "")
    return simulation_records(json.loads(text))


def explain(platform, *, write_model=None, **request):
    """`redist explain --platform PLATFORM --json`: P, Q, N (1-D) or the 2-D form as simulate() takes it (rows,
    cols, src_grid="4x4", src_block="64x64", src_first="0,0", src_order, dst_grid, ...; whole matrices),
    r, s, elem_bytes, placement, hosts, indexing, schedule, relabel (a name or "auto", the default),
    simulate (bool); write_model: also write the machine model file that redist.mpi's model= option and
    redist-mpi --model read.
    Returns one record per candidate: the request's fields, prediction_seconds and choice beside the
    candidate's indexing, schedule, relabel, predicted.index ... predicted.total (and simulated_total);
    for a 2-D request ScaLAPACK's pdgemr2d last (indexing and schedule "pdgemr2d"), never the choice."""
    text = _simulator.explain(os.fspath(platform), request, os.fspath(write_model) if write_model else "")
    return explanation_records(json.loads(text))


def _run_scenarios(files, sweep, out, jobs, platform):
    if isinstance(files, (str, os.PathLike)):
        files = [files]
    files = [os.fspath(f) for f in files]
    platform = os.fspath(platform) if platform else ""
    if out is not None:
        return scenario_records(json.loads(_simulator.run_scenarios(files, sweep, os.fspath(out), jobs, platform)))
    with tempfile.TemporaryDirectory(prefix="redist-") as folder:
        return scenario_records(json.loads(_simulator.run_scenarios(files, sweep, folder, jobs, platform)))


def sweep(files, *, out=None, jobs=1):
    """`redist sweep FILES --json`: the records of each sweep (scenario, paper, table, params.*, method, phase,
    simulated, published, unit, quantities.*). out: also write the reports there, as the command does
    (default: nowhere); jobs: simulations run in parallel."""
    return _run_scenarios(files, True, out, jobs, None)


def replay(files, *, out=None, jobs=1, platform=None):
    """`redist replay FILES --json`: the records of each published experiment replayed, beside its published
    values (fields as sweep()). platform: a what-if replay on another platform (a file or a name in
    platforms/); out: also write the reports there (default: nowhere)."""
    return _run_scenarios(files, False, out, jobs, platform)
