"""README's screenshot: the reference and the Node port side by side, in headless Chromium.

Certifies both engines in one ``compare`` run (the ci profile unless told otherwise),
renders the report page, opens it in Debian's headless Chromium (lanes/_support/browser.py)
and saves the first screen as a PNG. Run from the repository root:

    python -m tools.screenshot                      # -> docs/img/compare.png, out/readme-compare/
    python -m tools.screenshot --from out/readme-compare   # re-render, no certification
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from conformance.api import Engine
from conformance.compare import labels
from lanes._support.browser import headless, missing

ENGINES = ("python -m reference serve", "node ports/node/engine.js")


def certify(report: Path, workers: int, more: list[str]) -> None:
    """``compare`` the reference and the Node port into *report* (exit 1 or 4 stops here)."""
    command = [sys.executable, "-m", "conformance", "compare", "--report", str(report)]
    for engine in ENGINES:
        command += ["--engine", engine]
    command += ["--strict", "-n", str(workers), "--html", str(report / "index.html"), *more]
    status = subprocess.run(command, check=False).returncode
    if status not in (0, 3):
        raise SystemExit(f"compare exited {status}: no screenshot of a failed run")


def shoot(page: Path, out: Path, width: int, height: int) -> None:
    """Open *page* and save the first *width* x *height* screen of it to *out*."""
    with headless(width, height) as driver:
        driver.get(page.resolve().as_uri())
        driver.execute_script("document.fonts && document.fonts.ready")
        out.parent.mkdir(parents=True, exist_ok=True)
        if not driver.save_screenshot(str(out)):
            raise SystemExit(f"{out}: the browser saved no screenshot")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", default="out/readme-compare", help="compare directory")
    parser.add_argument("--from", dest="existing", help="an existing compare directory")
    parser.add_argument("--out", default="docs/img/compare.png")
    parser.add_argument("-n", dest="workers", type=int, default=2)
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=900)
    args, more = parser.parse_known_args()
    why = missing()
    if why:
        raise SystemExit(f"no headless browser: {why}")
    report = Path(args.existing or args.report)
    started = time.perf_counter()
    if not args.existing:
        certify(report, args.workers, more)
    page = report / "index.html"
    directories = [str(report / label) for label in labels([Engine(e) for e in ENGINES])]
    subprocess.run(
        [sys.executable, "-m", "conformance", "report", *directories, "--html", str(page)],
        check=True,
    )
    shoot(page, Path(args.out), args.width, args.height)
    print(f"{args.out} from {page} in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
