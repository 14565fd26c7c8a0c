from __future__ import annotations

import pytest

from .demo import DemoSite, demo_site


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> DemoSite:
    return demo_site(tmp_path_factory.getbasetemp() / "demo-site")
