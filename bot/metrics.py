"""What the bot tells an operator's Prometheus, as the parts of the bot see it.

The command tree, the components' answers and the scheduler call a ``Recorder``; by default it is
``OFF``, which does nothing, and nothing of ``prometheus-client`` is imported. With ``[bot]
metrics_port`` set, the bot gives them the recorder of bot/web/metrics_server.py instead, which counts
and serves ``/metrics``. This module imports nothing of the bot's, so every layer may call it.
"""

from __future__ import annotations

import importlib.util

#: An interaction's outcome: answered, refused with a user error (a polite message), or a bug.
OK, REFUSED, ERROR = "ok", "refused", "error"
OUTCOMES = (OK, REFUSED, ERROR)

EXTRA = "prometheus_client"


class MetricsUnavailable(RuntimeError):
    """``[bot] metrics_port`` is set but the ``metrics`` extra is not installed (a taken port is
    bot.errors.CannotListen). The message is the operator's one line (bot/cli/failures.py)."""


def check_available(port: int | None, where: str = "bot.metrics_port") -> None:
    """Refuse to start a bot whose metrics can't be served, before it connects; imports nothing."""
    if port is not None and importlib.util.find_spec(EXTRA) is None:
        raise MetricsUnavailable(f"{where} = {port}: the metrics need prometheus-client, which is not installed "
                                 "(pip install 'sideline[metrics]'; in a source tree: .venv/bin/pip install -e "
                                 "'.[metrics]'; or unset it)")


class Recorder:
    """Metrics off: every call does nothing. ``interaction_started`` .. ``interaction_finished``
    bracket one command, button or form; ``interaction_outcome`` says how it went wrong, if it did."""

    enabled = False

    def interaction_started(self, interaction_id: int, command: str) -> None:
        """The bot began handling it (latency counts from here)."""

    def interaction_outcome(self, interaction_id: int, outcome: str) -> None:
        """``REFUSED`` or ``ERROR``; the first one said counts. One never said is ``OK``."""

    def interaction_finished(self, interaction_id: int) -> None:
        """The handler returned: count it under its command and outcome."""

    def scheduler_woke(self, late_seconds: float) -> None:
        """A scheduler wake-up ran ``late_seconds`` after it was due."""


OFF = Recorder()


def of(client: object) -> Recorder:
    """The recorder of the bot that received an interaction (``OFF`` for any other client)."""
    recorder = getattr(client, "metrics", OFF)
    return recorder if isinstance(recorder, Recorder) else OFF
