"""Fixtures of the urim Python tests: the package from this clone (built
with scripts/build_python.sh), the urim command and the Go reference
program, built once per session into a temporary directory."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))


def _go():
    for go in ("go", "/usr/local/go/bin/go"):
        try:
            subprocess.run([go, "version"], check=True, capture_output=True)
            return go
        except (OSError, subprocess.CalledProcessError):
            continue
    pytest.skip("go is not installed")


def _build(tmp_path_factory, pkg, name):
    out = str(tmp_path_factory.getbasetemp() / name)
    if not os.path.exists(out):
        subprocess.run([_go(), "build", "-o", out, pkg], cwd=ROOT, check=True)
    return out


@pytest.fixture(scope="session")
def urim_bin(tmp_path_factory):
    """The urim command, built from this clone."""
    return _build(tmp_path_factory, "./cmd/urim", "urim")


@pytest.fixture(scope="session")
def govec(tmp_path_factory):
    """python/tests/govec: steps an env.Vec with given actions, writes .npz."""
    return _build(tmp_path_factory, "./python/tests/govec", "govec")
