"""Hypothesis profiles of the property suite.

``ci`` (the default) runs a few derandomized examples per property and does not shrink a
failing one, so the suite takes about a minute and its outcome does not change from run to
run; ``thorough`` runs many random examples and shrinks a failure to a minimal example.
Choose with the environment variable ``PAIREDSTATS_HYPOTHESIS_PROFILE``.
"""

import os

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
settings.load_profile(os.environ.get("PAIREDSTATS_HYPOTHESIS_PROFILE", "ci"))
