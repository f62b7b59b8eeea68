"""A real headless Chromium driven by Selenium, from the system's packages only.

The browser is Debian's ``chromium`` and the driver its ``chromium-driver``
(``/usr/bin/chromium``, ``/usr/bin/chromedriver``; ``CHROMIUM`` and ``CHROMEDRIVER``
override). Nothing is downloaded: Selenium is given both paths, so its manager never
looks for a browser of its own. ``missing()`` says why no browser can run here (None
when one can).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

INSTALL_HINT = "apt-get install -y chromium chromium-driver; pip install -e '.[browser]'"


def _which(variable: str, *names: str) -> str | None:
    given = os.environ.get(variable)
    if given:
        return given if os.access(given, os.X_OK) else None
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return None


def chromium() -> str | None:
    return _which("CHROMIUM", "chromium", "chromium-browser")


def chromedriver() -> str | None:
    return _which("CHROMEDRIVER", "chromedriver")


def missing() -> str | None:
    """Why a headless Chromium cannot be driven here, or None when it can."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return f"selenium is not installed ({INSTALL_HINT})"
    if chromium() is None:
        return f"no chromium executable on PATH ({INSTALL_HINT})"
    if chromedriver() is None:
        return f"no chromedriver executable on PATH ({INSTALL_HINT})"
    return None


@contextmanager
def headless(width: int = 1400, height: int = 900) -> Iterator[Any]:
    """A Selenium WebDriver on a headless system Chromium, quit on exit."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium() or "chromium"
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--disable-extensions",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
        f"--window-size={width},{height}",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(chromedriver() or "chromedriver"))
    try:
        yield driver
    finally:
        driver.quit()
