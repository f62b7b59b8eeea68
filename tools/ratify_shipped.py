"""Re-ratify the shipped register packs in ``reference/registers/data/``.

Uses ``reference.runtime.probe.register_probe`` as the evidence probe when that
module exists, and no probe otherwise. Exits 0 when every pack ratified, 2 if not.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROBE_MODULE = "reference.runtime.probe"


def find_probe() -> Callable | None:
    """The engine's ``register_probe`` if its module is importable, else ``None``."""
    try:
        module = importlib.import_module(PROBE_MODULE)
    except ModuleNotFoundError as exc:
        missing = exc.name or ""
        if missing == PROBE_MODULE or PROBE_MODULE.startswith(missing + "."):
            return None
        raise
    return getattr(module, "register_probe", None)


def main() -> int:
    """Ratify every shipped pack, printing one line per pack."""
    from reference.cli import main_ratify
    from reference.registers.loader import SHIPPED_DATA_DIR, SHIPPED_REGISTER_IDS

    paths = [str(SHIPPED_DATA_DIR / f"{register_id}.json") for register_id in SHIPPED_REGISTER_IDS]
    return main_ratify(paths, evidence_probe=find_probe())


if __name__ == "__main__":
    raise SystemExit(main())
