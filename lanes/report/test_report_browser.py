"""The report page in a real headless Chromium (Debian's, driven by Selenium).

Loads the comparison's page from a file:// URL, filters the matrix by text, by outcome
and by family, opens a counterexample from its failing cell, and takes a screenshot.
Skips, saying why, only where no browser is installed, and never under CI (``CI`` set):
there .ci/run installs one and a missing browser fails the lane.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from lanes._support.browser import headless, missing

REQUIRED = bool(os.environ.get("CI"))
"""In CI a missing browser fails the lane instead of skipping it: .ci/run installs one."""

pytestmark = pytest.mark.skipif(
    missing() is not None and not REQUIRED, reason=f"no headless browser: {missing()}"
)

BROKEN = "selftest-engines-flippedproductsign"


@pytest.fixture(scope="module")
def page(compared: Path) -> Any:
    if missing() is not None:
        pytest.fail(f"CI must run the browser lane, but: {missing()}")
    with headless() as driver:
        driver.get((compared / "page.html").as_uri())
        yield driver


def visible_ids(driver: Any) -> list[str]:
    rows = driver.find_elements("css selector", "#matrix tbody tr")
    return [r.get_attribute("data-id") for r in rows if r.is_displayed()]


def test_the_page_loads_without_errors(page: Any) -> None:
    assert page.title == "CORE conformance: 2 engines side by side"
    assert page.find_element("id", "shown").text == "2 of 2 requirements shown"
    errors = [e for e in page.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []
    cards = page.find_elements("css selector", "#summary .engine")
    assert [c.get_attribute("data-engine") for c in cards][1] == BROKEN
    assert "NOT CERTIFIED" in cards[1].text


def test_filters_narrow_the_matrix(page: Any) -> None:
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.select import Select

    box = page.find_element("id", "filter")
    box.send_keys("fork")
    assert visible_ids(page) == ["PROTO-FORK-001"]
    assert page.find_element("id", "shown").text == "1 of 2 requirements shown"
    box.send_keys(*[Keys.BACKSPACE] * len("fork"))
    assert len(visible_ids(page)) == 2
    Select(page.find_element("id", "outcome")).select_by_value("failing")
    assert visible_ids(page) == ["ALG-TABLE-001"]
    Select(page.find_element("id", "outcome")).select_by_value("")
    Select(page.find_element("id", "family")).select_by_value("protocol")
    assert visible_ids(page) == ["PROTO-FORK-001"]
    Select(page.find_element("id", "family")).select_by_value("")
    assert len(visible_ids(page)) == 2


def test_a_failing_cell_opens_its_counterexample(page: Any, tmp_path: Path) -> None:
    detail = page.find_element("id", "detail-ALG-TABLE-001")
    assert detail.get_attribute("open") is None
    cell = page.find_element(
        "css selector", f'#matrix tr[data-id="ALG-TABLE-001"] td[data-engine="{BROKEN}"] a'
    )
    assert cell.text == "FAIL"
    cell.click()
    assert detail.get_attribute("open") is not None
    outcome = page.find_element("id", f"detail-ALG-TABLE-001-{BROKEN}")
    assert outcome.is_displayed()
    replay = outcome.find_element("css selector", "pre.replay").text
    assert replay.startswith("python -m conformance replay ")
    assert "counterexamples/ALG-TABLE-001.json" in replay
    assert outcome.find_element("css selector", ".scenario pre").text.strip()
    shot = tmp_path / "counterexample.png"
    assert page.save_screenshot(str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
