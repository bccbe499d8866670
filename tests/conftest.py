"""Settings of the whole test session: bytecode caches and the hypothesis profiles.

**Bytecode.** The suite imports about 170 modules of its own and the package's, rewrites the
asserts of every test module, and starts fresh interpreters that import the package (the
command line, process pools, the notebooks, the docs build). Where the environment says not
to write bytecode caches (``PYTHONDONTWRITEBYTECODE``, common in containers), each of them
compiles every module from source again, every run: 8 of the 15 s that collecting the quick
loop took. The session writes the caches (``__pycache__``, ignored by git) whatever the
environment says, so that a second run and every child process read them instead.

**Hypothesis profiles.** ``ci`` (the default) runs a few derandomized examples per property
and does not shrink a failing one, so that the outcome does not change from run to run;
``thorough`` runs many random examples and shrinks a failure to a minimal example; ``quick``,
the quick loop's (``pytest -m "not slow"``, unless the variable names a profile), runs every
property on 2 of those derandomized examples, and a test that sets its own number of
examples (``@settings(max_examples=80)``, where the profile's few are too few) on at most
:data:`QUICK_EXAMPLES`. Choose with the environment variable
``PAIREDSTATS_HYPOTHESIS_PROFILE``.
"""

import os
import re
import sys

import pytest
from hypothesis import HealthCheck, Phase, settings

sys.dont_write_bytecode = False

_COMMON = dict(
    deadline=None,
    database=None,
    print_blob=True,
    report_multiple_bugs=False,  # one exception, the one an xfail mark expects
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "ci", max_examples=5, derandomize=True, phases=set(Phase) - {Phase.shrink}, **_COMMON
)
settings.register_profile("thorough", max_examples=150, **_COMMON)
settings.register_profile("quick", settings.get_profile("ci"), max_examples=2)
settings.load_profile(os.environ.get("PAIREDSTATS_HYPOTHESIS_PROFILE", "ci"))

#: The most examples a test that sets its own runs in the quick loop.
QUICK_EXAMPLES = 5


def _quick(config) -> bool:
    """The quick loop: ``-m "not slow"``, with no profile named by the environment."""
    quick = re.search(r"\bnot\s+slow\b", config.getoption("markexpr") or "")
    return bool(quick) and "PAIREDSTATS_HYPOTHESIS_PROFILE" not in os.environ


def pytest_configure(config):
    """The quick loop loads the ``quick`` profile."""
    if _quick(config):
        settings.load_profile("quick")


def pytest_collection_modifyitems(config, items):
    """In the quick loop, a test's own ``max_examples`` above :data:`QUICK_EXAMPLES` is cut
    to it (hypothesis reads a test's settings from this attribute when the test runs)."""
    if not _quick(config):
        return
    for item in items:
        test = getattr(item, "obj", None)
        own = getattr(test, "_hypothesis_internal_use_settings", None)
        if own is not None and own.max_examples > QUICK_EXAMPLES:
            test._hypothesis_internal_use_settings = settings(own, max_examples=QUICK_EXAMPLES)


@pytest.fixture(scope="module")
def client():
    """A dask.distributed LocalCluster of 2 workers of 1 thread (in this process) and its
    client, for the tests of the dask DataFrame roads."""
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster) as c,
    ):
        yield c
