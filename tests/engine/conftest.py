"""The engine tests need no Django: they also run with `-p no:django`."""

import pytest


@pytest.fixture
def fast_password_hashing():
    """Override the project-wide autouse fixture: the engine hashes no passwords."""
