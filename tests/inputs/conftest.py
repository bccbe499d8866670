import pytest

from .tables import tidy_frame


@pytest.fixture
def tidy():
    return tidy_frame()
