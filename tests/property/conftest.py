"""Hypothesis profiles of the property suite.

``ci`` (the default) runs a few derandomized examples per property and does not shrink a
failing one, so the suite takes about a minute and its outcome does not change from run to
run; ``thorough`` runs many random examples and shrinks a failure to a minimal example;
``quick``, the quick loop's (``pytest -m "not slow"``, unless the variable names a profile),
runs every property on 2 of those derandomized examples. Choose with the environment
variable ``PAIREDSTATS_HYPOTHESIS_PROFILE``.
"""

import os
import re

from hypothesis import HealthCheck, Phase, settings

_COMMON = dict(
    deadline=None,
    database=None,
    print_blob=True,
    report_multiple_bugs=False,  # one exception, the one an xfail mark expects
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "ci", max_examples=8, derandomize=True, phases=set(Phase) - {Phase.shrink}, **_COMMON
)
settings.register_profile("thorough", max_examples=150, **_COMMON)
settings.register_profile("quick", settings.get_profile("ci"), max_examples=2)
settings.load_profile(os.environ.get("PAIREDSTATS_HYPOTHESIS_PROFILE", "ci"))


def pytest_configure(config):
    """``-m "not slow"`` (the quick loop) loads the ``quick`` profile."""
    quick = re.search(r"\bnot\s+slow\b", config.getoption("markexpr") or "")
    if quick and "PAIREDSTATS_HYPOTHESIS_PROFILE" not in os.environ:
        settings.load_profile("quick")
