"""Run the mutation tests cheapest first, whatever order mutmut names them in."""

from __future__ import annotations

import pytest


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    from selftest.mutation.test_suite_kills import IDS

    rank = {f"test_requirement_holds[{req_id}]": index for index, req_id in enumerate(IDS)}
    items.sort(key=lambda item: rank.get(item.name, -1))
