"""What every module of the package names: the JSON value type and the repository root."""

from __future__ import annotations

from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

Json = Any
