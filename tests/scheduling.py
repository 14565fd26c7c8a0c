"""How `make test` shares the suite between its workers (pytest-xdist's ``--dist loadscope``).

loadscope keeps a module on one worker, so that its module-scoped campaigns are built once. The browser
modules are the exception that made the suite wait: each sweeps every page of every ruleset's demo site
(a minute a ruleset), so one module was ten minutes on one worker while the others had finished. Here a
browser test that runs for one ruleset is grouped with that module's other tests of the same ruleset
only: the sweeps spread over the workers a ruleset at a time. Their sites are built once a worker anyway
(tests/site/demo.py keeps what it built), and their module fixtures are parametrized by ruleset, so a
group never builds another's.
"""

from __future__ import annotations

import re

import pytest
from xdist.scheduler import LoadScopeScheduling

from resolver.engine.ruleset import RULESETS

SPLIT_BY_RULESET = "tests/browser/"
PARAMETERS = re.compile(r"\[(.*)\]$")


def scope_of(nodeid: str) -> str:
    """The group a test is sent to a worker in: its module (loadscope's own), and for a browser test that
    runs for one ruleset, that ruleset too."""
    module = nodeid.rsplit("::", 1)[0]
    found = PARAMETERS.search(nodeid)
    if not nodeid.startswith(SPLIT_BY_RULESET) or found is None:
        return module
    ruleset = next((part for part in found.group(1).split("-") if part in RULESETS), None)
    return module if ruleset is None else f"{module}::{ruleset}"


class RulesetScopes(LoadScopeScheduling):
    def _split_scope(self, nodeid: str) -> str:
        return scope_of(nodeid)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> LoadScopeScheduling | None:
    if config.getvalue("dist") != "loadscope":
        return None  # another distribution asked for: xdist's own
    return RulesetScopes(config, log)
