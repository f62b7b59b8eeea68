"""register.ratify_file touching the pair of a pack its gate refuses (docs/registers.md § The
ratification gate: a pack refused by steps 1-5 leaves both files untouched)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from reference.errors import RegisterError
from reference.registers import Ratifier
from reference.registers.seal import report_path_for, seal_report
from reference.serve import ProtocolHandler


class _GateAfterWrite(Ratifier):
    def ratify(self, path: Path) -> dict[str, Any]:
        path = Path(path)
        pack = self.read(path)
        report = seal_report(self.unsealed_report(pack, self.evidence(pack)))
        self.write_sealed(path, pack, report)
        self.check_gate(pack)
        return report


class RatifyGateAfterWrite(ProtocolHandler):
    """ratify_file writes the sealed pair, then applies the null rule: a refused pack is
    rewritten."""

    ratifier = _GateAfterWrite()


class _DropsOldReport(Ratifier):
    def ratify(self, path: Path) -> dict[str, Any]:
        try:
            return super().ratify(path)
        except RegisterError:
            with contextlib.suppress(OSError):
                report_path_for(Path(path)).unlink()
            raise


class RatifyRefusalDropsOldReport(ProtocolHandler):
    """ratify_file removes the old report of a pack its gate refuses (it no longer matches)."""

    ratifier = _DropsOldReport()
