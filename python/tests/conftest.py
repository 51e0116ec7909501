"""Shared by the Python tests: the `redist` command built beside the module (REDIST_BIN, set by ctest),
and, under mpirun, one JUnit report (rank 0's) for the test command's count."""
import os

import pytest


def pytest_configure(config):
    rank = os.environ.get("OMPI_COMM_WORLD_RANK", "0")
    if rank != "0":
        config.option.xmlpath = None  # every rank runs the same tests; rank 0 reports them


@pytest.fixture(scope="session")
def redist_bin():
    path = os.environ.get("REDIST_BIN")
    if not path or not os.access(path, os.X_OK):
        pytest.fail("REDIST_BIN must name the built redist command (ctest sets it)")
    return path
