"""What every benchmark prints about where it ran, and small measuring helpers."""

from __future__ import annotations

import multiprocessing
import os
import platform
import resource
import sys
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from tempfile import TemporaryDirectory


def describe() -> str:
    """The machine beside the figures: its cores and how busy it was (a busy machine is slower)."""
    return (f"{datetime.now(UTC):%Y-%m-%d} · {load()} · {platform.machine()} · "
            f"{platform.system()} · Python {platform.python_version()}")


def load() -> str:
    """The cores and the load average, to print beside each figure."""
    averages = ", ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"
    return f"{os.cpu_count()} cores · load average {averages}"


def spin(seconds: float, parent: int) -> None:
    """A CPU-bound competitor: arithmetic until ``seconds`` have passed or its parent is gone."""
    deadline = time.monotonic() + seconds
    x = 0
    while time.monotonic() < deadline and os.getppid() == parent:
        for i in range(20_000):
            x = (x * 31 + i) % 1_000_003


@contextmanager
def busy_cores(seconds: float) -> Iterator[int]:
    """One CPU-bound competitor process per core while the block runs, as a machine busy with other
    work: each stops by itself after ``seconds`` (or when this process is gone), and all are
    stopped when the block ends. Yields how many were started."""
    context = multiprocessing.get_context("spawn")  # no fork of a process with aiosqlite's threads
    competitors = [context.Process(target=spin, args=(seconds, os.getpid()), daemon=True)
                   for _ in range(os.cpu_count() or 1)]
    for competitor in competitors:
        competitor.start()
    try:
        yield len(competitors)
    finally:
        for competitor in competitors:
            competitor.terminate()
        for competitor in competitors:
            competitor.join(5)


def rss_mb() -> float:
    """Current resident set size (Linux /proc; falls back to the peak elsewhere)."""
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def percentile(values: list[float], pct: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(pct / 100 * (len(ordered) - 1))))
    return ordered[index]


def reproduce(module: str, *args: str) -> str:
    return "reproduce: " + " ".join([".venv/bin/python -m", module, *args])


@asynccontextmanager
async def fresh_database(pg: str | None, name: str) -> AsyncIterator[str]:
    """A fresh database: a temporary SQLite file, or a new PostgreSQL database dropped afterwards."""
    if pg is None:
        with TemporaryDirectory() as tmp:
            yield f"sqlite+aiosqlite:///{Path(tmp) / f'{name}.db'}"
        return
    import asyncpg
    from sqlalchemy.engine import make_url

    base = make_url(pg)
    database = f"sideline_{name}_{uuid.uuid4().hex[:8]}"
    admin = await asyncpg.connect(host=base.host, port=base.port or 5432, user=base.username,
                                  password=base.password, database=base.database or "postgres")
    await admin.execute(f'CREATE DATABASE "{database}"')
    try:
        yield base.set(database=database).render_as_string(hide_password=False)
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        await admin.close()
