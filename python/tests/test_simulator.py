"""redist.simulate, explain, sweep and replay against the `redist` command's JSON for the same arguments:
the same records (pandas.json_normalize's flattening of the JSON), the same refusals."""
import json
import os
import subprocess
import textwrap

import pytest

import redist
from redist.records import explanation_records, scenario_records, simulation_records

SP2 = redist.platform_file("sp2")


def command(redist_bin, *args):
    """The command's standard output as JSON, or its error line (stderr) when it fails."""
    done = subprocess.run([redist_bin, *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return None, done.stderr.strip()
    return json.loads(done.stdout), None


def flags(params):
    out = []
    for name, value in params.items():
        out += ["-" + name if len(name) == 1 else "--" + name.replace("_", "-"), str(value)]
    return out


@pytest.mark.parametrize(
    "params",
    [
        dict(P=4, Q=4, r=3, s=5, N=10000),
        dict(P=3, Q=5, r=7, s=2, N=4096, indexing="prylli", schedule="greedy", elem_bytes=4),
        dict(P=4, Q=4, r=2, s=6, N=1000, indexing="krr", relabel="exact", repeat=3),
        dict(P=2, Q=3, r=1, s=4, N=2000, placement="disjoint", schedule="caterpillar", work="paper"),
    ],
)
def test_simulate_is_the_commands_run(redist_bin, params):
    records = redist.simulate(platform=SP2, **params)
    expected, error = command(redist_bin, "simulate", "--platform", SP2, *flags(params), "--json")
    assert error is None
    assert records == simulation_records(expected)
    assert records[0]["verified"] is True


def test_simulate_runs_again_and_again_in_one_process():
    first = redist.simulate(platform=SP2, P=4, Q=4, r=3, s=5, N=5000, indexing="prylli")
    for _ in range(3):
        assert redist.simulate(platform=SP2, P=4, Q=4, r=3, s=5, N=5000, indexing="prylli") == first


def test_simulate_phantom_payload(redist_bin):
    records = redist.simulate(platform=SP2, payload="phantom", P=4, Q=4, r=3, s=5, N=10**9, indexing="prylli")
    expected, _ = command(redist_bin, "simulate", "--platform", SP2, "-P", "4", "-Q", "4", "-r", "3", "-s", "5",
                          "-N", str(10**9), "--indexing", "prylli", "--phantom", "--json")
    assert records == simulation_records(expected)
    assert records[0]["phantom"] is True and records[0]["verified"] is None


def test_records_are_flat(tmp_path):
    """Scalars only: every field a column of its own in pandas.DataFrame(records)."""
    records = (redist.simulate(platform=SP2, P=4, Q=4, r=3, s=5, N=1000, relabel="greedy")
               + redist.explain(platform=SP2, P=4, Q=4, N=1000, simulate=True)
               + redist.sweep(scenario_file(tmp_path, SWEEP, "flat.yaml")))
    for record in records:
        assert all(isinstance(v, (str, int, float, bool, type(None))) for v in record.values()), record
    assert "phases.total" in records[0] and "predicted.total" in records[1] and "params.r" in records[-1]


def test_records_make_a_data_frame():
    pandas = pytest.importorskip("pandas")
    frame = pandas.DataFrame(redist.simulate(platform=SP2, P=4, Q=4, r=3, s=5, N=1000))
    assert frame.loc[0, "phases.total"] > 0


@pytest.mark.parametrize(
    "params",
    [
        dict(P=4, Q=4, r=0, s=1, N=100),
        dict(P=4, Q=4, r=2, s=1, N=100, indexing="bogus"),
        dict(P=4, Q=4, s=1, N=100),
        dict(P=4, Q=4, r=2, s=1, N=100, relabel="exact", placement="disjoint"),
        dict(P=4, Q=4, r=2, s=1, N=10**12, indexing="naive"),
    ],
)
def test_simulate_refuses_as_the_command_does(redist_bin, params):
    with pytest.raises((ValueError, RuntimeError)) as refused:
        redist.simulate(platform=SP2, **params)
    _, error = command(redist_bin, "simulate", "--platform", SP2, *flags(params), "--json")
    assert error is not None and str(refused.value) in error


def test_simulate_refuses_what_the_command_does_not_take():
    with pytest.raises(ValueError, match="redist simulate takes no parameter 'direction'"):
        redist.simulate(platform=SP2, P=4, Q=4, r=2, N=100, direction="kr->r")
    with pytest.raises(ValueError, match="parameter 'P' must be a positive whole number, got true"):
        redist.simulate(platform=SP2, P=True, Q=4, r=2, s=1, N=100)
    with pytest.raises(RuntimeError, match="no such readable file"):
        redist.simulate(platform="no-such-platform.xml", P=4, Q=4, r=2, s=1, N=100)


def without_timing(records):
    return [{k: v for k, v in r.items() if k != "prediction_seconds"} for r in records]


@pytest.mark.parametrize(
    "request_",
    [
        dict(P=4, Q=4, r=3, s=5, N=100000),
        dict(P=3, Q=2, r=4, s=8, N=50000, placement="disjoint", indexing="auto", schedule="async", relabel="none"),
        dict(P=4, Q=4, r=2, s=6, N=20000, elem_bytes=4, indexing="krr", simulate=True),
        dict(rows=96, cols=64, src_grid="2x2", src_block="8x8", dst_grid="4x1", dst_block="5x7", dst_first="1,0",
             simulate=True),
    ],
)
def test_explain_is_the_commands_answer(redist_bin, request_):
    records = redist.explain(platform=SP2, **request_)
    args = flags({k: v for k, v in request_.items() if k != "simulate"}) + (["--simulate"] if request_.get("simulate") else [])
    expected, error = command(redist_bin, "explain", "--platform", SP2, *args, "--json")
    assert error is None
    assert without_timing(records) == without_timing(explanation_records(expected))
    assert len(records) == len(expected["candidates"]) + ("pdgemr2d" in expected)
    assert records[0]["choice"] == expected["choice"]
    if "rows" in request_:  # 2-D: ScaLAPACK's pdgemr2d beside redist's candidates, last
        assert records[-1]["indexing"] == "pdgemr2d" and records[-1]["predicted.total"] > 0


def test_explain_writes_the_machine_model(redist_bin, tmp_path):
    redist.explain(platform=SP2, P=4, Q=4, N=1000, write_model=tmp_path / "python.model.json")
    subprocess.run([redist_bin, "explain", "--platform", SP2, "-P", "4", "-Q", "4", "-N", "1000",
                    "--write-model", str(tmp_path / "command.model.json")], capture_output=True, check=True)
    assert (tmp_path / "python.model.json").read_text() == (tmp_path / "command.model.json").read_text()


@pytest.mark.parametrize(
    "request_",
    [dict(P=0, Q=4, N=100), dict(P=4, Q=4, N=100, placement="x"), dict(P=4, Q=4, N=100, indexing="bogus")],
)
def test_explain_refuses_as_the_command_does(redist_bin, request_):
    with pytest.raises(ValueError) as refused:
        redist.explain(platform=SP2, **request_)
    _, error = command(redist_bin, "explain", "--platform", SP2, *flags(request_), "--json")
    assert error is not None and str(refused.value) in error


def test_simulate_takes_the_2d_form_as_the_command_does(redist_bin):
    params = dict(rows=96, cols=64, src_grid="2x2", src_block="8x8", dst_grid="4x1", dst_block="5x7",
                  src_at="3,5", dst_at="1,2", sub="40x30")
    records = redist.simulate(platform=SP2, **params)
    expected, error = command(redist_bin, "simulate", "--platform", SP2, *flags(params), "--json")
    assert error is None and len(records) == 1
    assert records[0]["verified"] is True and records[0]["sub"] == [40, 30] and records[0]["src.at"] == [3, 5]
    assert records[0]["phases.total"] == expected["phases"]["total"]
    pdgemr2d = redist.simulate(platform=SP2, method="pdgemr2d", **{k: params[k] for k in list(params)[:6]})
    assert pdgemr2d[0]["indexing"] == "pdgemr2d" and pdgemr2d[0]["verified"] is True


def test_explain_refuses_a_missing_request():
    with pytest.raises(ValueError, match="^parameter 'N' is not set: a 1-D run needs P, Q and N"):
        redist.explain(platform=SP2, P=4, Q=4)
    with pytest.raises(ValueError, match="redist explain takes no parameter 'grids'"):
        redist.explain(platform=SP2, P=4, Q=4, N=10, grids="2x2")


SWEEP = """\
scenario: python-sweep
description: A small sweep for the Python module's tests.
platform: sp2.xml
experiment: redistribute
fixed: {P: 4, Q: 4, N: 20000, indexing: prylli}
sweep:
  r: [1, 3]
  s: [2, 5]
methods:
  - name: async
    schedule: async
  - name: greedy
    schedule: greedy
phases: [comm, total]
unit: ms
"""

REPLAY = """\
role: claims
scenario: python-replay
paper: 004_8dd692a5076a3200.txt
table: Figure 2 (example 1)
description: A small replay for the Python module's tests.
platform: paragon.xml
experiment: redistribute
fixed: {work: paper, P: 16, Q: 16, r: 3, s: 5, elem_bytes: 8, indexing: naive, placement: shared}
sweep:
  N: {from: 1200, to: 19200, factor: 4}
methods:
  - name: caterpillar
    schedule: caterpillar
  - name: stepwise
    schedule: stepwise
phases: [comm]
unit: ms
"""


def scenario_file(folder, text, name):
    path = folder / name
    path.write_text(textwrap.dedent(text))
    return path


def test_sweep_is_the_commands_sweep(redist_bin, tmp_path):
    path = scenario_file(tmp_path, SWEEP, "python-sweep.yaml")
    records = redist.sweep(path, jobs=2)
    expected, error = command(redist_bin, "sweep", str(path), "--out", str(tmp_path / "out"), "--json", "--no-plot")
    assert error is None
    assert records == scenario_records(expected)
    assert len(records) == 2 * 2 * 2 * 2  # r x s x methods x phases
    assert {r["params.r"] for r in records} == {1, 3}
    assert not os.path.exists(tmp_path / "python-sweep.md")  # nothing written without out=


def test_replay_is_the_commands_replay(redist_bin, tmp_path):
    path = scenario_file(tmp_path, REPLAY, "python-replay.yaml")
    records = redist.replay([path], out=tmp_path / "python-out")
    expected, error = command(redist_bin, "replay", str(path), "--out", str(tmp_path / "out"), "--json", "--no-plot")
    assert error is None
    assert records == scenario_records(expected)
    assert (tmp_path / "python-out" / "python-replay.json").is_file()


def test_sweep_refuses_as_the_command_does(redist_bin, tmp_path):
    path = scenario_file(tmp_path, SWEEP.replace("P: 4", "P: 0"), "python-bad.yaml")
    with pytest.raises(RuntimeError) as refused:
        redist.sweep(path)
    _, error = command(redist_bin, "sweep", str(path), "--out", str(tmp_path / "out"), "--json", "--no-plot")
    assert error is not None and str(refused.value) in error
