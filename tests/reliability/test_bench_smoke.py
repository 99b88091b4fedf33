"""Every benchmark runs, in a size that takes seconds: a bench that no longer starts (a module moved,
a name changed) fails here, not on the day someone needs its figures. No figure is asserted; each
must still print the machine it ran on and the command that reproduces it (bench/machine.py)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SMOKE = {
    "bench.burst": ["--rates", "20", "--seconds", "0.5", "--busy"],  # the competitors too (they stop at the end)
    "bench.fanout": ["--reminders", "12", "--channels", "3", "--limit", "60"],
    "bench.feed": ["--games", "200", "--clients", "3", "--requests", "2", "--idle", "0.5"],
    "bench.idle": [],
    "bench.imports": ["--rows", "40"],
    "bench.pictures": ["--runs", "2"],
    "bench.rule_lookup": ["--repeats", "1", "--no-service", "--leagues", "3"],
    "bench.scale": ["--leagues", "5", "--messages", "20", "--limit", "60"],
    "bench.scheduler": ["--rows", "100"],
    "bench.standings": ["--repeat", "1", "--teams", "8"],
    "bench.stats": ["--rates", "10", "--seconds", "0.5", "--players", "400", "--games", "40"],
    "bench.units": ["--count", "10"],
}


def test_every_bench_module_has_a_smoke_size() -> None:
    modules = {f"bench.{p.stem}" for p in (ROOT / "bench").glob("*.py")} - {"bench.__init__", "bench.machine",
                                                                            "bench.league_data"}
    assert modules == set(SMOKE)


@pytest.mark.parametrize("module", sorted(SMOKE))
def test_the_bench_runs_and_says_how_to_reproduce_it(module: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "SIDELINE_BENCH_PG_URL"}  # SQLite only: seconds
    done = subprocess.run([sys.executable, "-m", module, *SMOKE[module]], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env={**env, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"reproduce: .venv/bin/python -m {module}" in done.stdout
    assert re.search(r"\b\d+ cores · load average \d", done.stdout)  # how many cores, and how busy they were
