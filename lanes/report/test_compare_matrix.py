"""compare, the library API and the report page, without a browser.

The comparison of the reference and a broken engine (conftest.py) prints a matrix whose
failing cell carries its replay command; ``--format json`` validates against
compare.schema.json; the page is self-contained and the same reports give the same
bytes.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import conformance
from conformance.cli import main
from conformance.compare import counterexamples, engine_runs
from conformance.report.html import render_html
from conformance.report.matrix import build_matrix, render_matrix
from conformance.report.validation import validate

REF, BROKEN = "reference-serve-protocolhandler", "selftest-engines-flippedproductsign"


def test_each_engine_has_its_report_directory(compared: Path) -> None:
    for label, verdict in ((REF, "partial"), (BROKEN, "not-certified")):
        report = json.loads((compared / "runs" / label / "report.json").read_text())
        assert report["summary"]["verdict"] == verdict
    assert (compared / "runs" / BROKEN / "counterexamples" / "ALG-TABLE-001.json").is_file()


def test_json_matrix_validates_and_names_the_replay(compared: Path) -> None:
    matrix = build_matrix(engine_runs([str(compared / "runs")]))
    validate("compare", json.loads(json.dumps(matrix)))
    row = {r["id"]: r for r in matrix["requirements"]}["ALG-TABLE-001"]
    assert not row["agree"]
    assert row["cells"][REF]["outcome"] == "pass"
    failing = row["cells"][BROKEN]
    assert failing["outcome"] == "fail"
    assert failing["replay"].startswith("python -m conformance replay ")
    assert "--engine-python selftest.engines:FlippedProductSign" in failing["replay"]
    assert matrix["verdict"] == "not-certified"
    text = render_matrix(matrix)
    assert re.search(r"^ALG-TABLE-001 +pass +FAIL +\*$", text, re.M)
    assert failing["replay"] in text
    assert "verdict: NOT CERTIFIED" in text


def test_compare_stdout_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(
        [
            "compare",
            "--engine-python",
            "reference.serve:ProtocolHandler",
            "--id",
            "PROTO-FORK-001",
            "--report",
            str(tmp_path),
            "--format",
            "json",
            "-n",
            "1",
        ]
    )
    out = capsys.readouterr()
    assert status == 3
    document = json.loads(out.out)
    validate("compare", document)
    assert document["$schema"].endswith("compare-1.schema.json")
    assert "PARTIAL" in out.err


def test_page_is_deterministic_and_self_contained(compared: Path, tmp_path: Path) -> None:
    status = main(["report", str(compared / "runs"), "--html", str(tmp_path / "again.html")])
    assert status == 0
    runs = engine_runs([str(compared / "runs")])
    page = (compared / "page.html").read_text(encoding="utf-8")
    again = (tmp_path / "again.html").read_text(encoding="utf-8")
    assert page == render_html(runs, [counterexamples(r) for r in runs])
    assert page == again
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "<link" not in page and "@import" not in page
    assert "python -m conformance replay" in page


def test_report_refuses_a_directory_without_reports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["report", str(tmp_path), "--html", str(tmp_path / "page.html")])
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1 and "no report.json" in err


def test_library_api_certifies_and_merges(tmp_path: Path) -> None:
    engine = conformance.Engine(python="reference.serve:ProtocolHandler")
    shards = []
    for index in (1, 2):
        report = conformance.certify(
            engine,
            ["PROTO-FORK-001", "ALG-PROD-001"],
            examples=2,
            shard=f"{index}/2",
            report_dir=tmp_path / f"shard{index}",
        )
        assert isinstance(report, conformance.Report)
        assert report.verdict == "partial" and report.exit_status == 3
        shards.append(tmp_path / f"shard{index}")
    merged = conformance.merge(shards, tmp_path / "merged")
    assert merged.outcomes() == {"ALG-PROD-001": "pass", "PROTO-FORK-001": "pass"}
    assert (tmp_path / "merged" / "report.json").is_file()


def test_library_api_refuses_bad_inputs_by_code() -> None:
    with pytest.raises(conformance.ConformanceError) as unknown:
        conformance.certify(conformance.Engine(), conformance.Selection(("NO-SUCH-001",)))
    assert unknown.value.code == "UNKNOWN_REQUIREMENT"
    with pytest.raises(conformance.ConformanceError) as profile:
        conformance.certify(conformance.Engine(), profile="nightly")
    assert profile.value.code == "UNKNOWN_PROFILE"


COMMAND_LINE = {
    "cli.py",
    "cli_args.py",
    "compare_cli.py",
    "smoke_cli.py",
    "campaign/cli.py",
    "scaled.py",
}
"""The modules that parse the command line (scaled.py only adds certify's options)."""


def test_nothing_below_the_cli_sees_argparse() -> None:
    root = Path(conformance.__file__).parent
    seeing = {
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if "argparse" in path.read_text(encoding="utf-8")
    }
    assert seeing <= COMMAND_LINE
    scaled = (root / "scaled.py").read_text(encoding="utf-8")
    assert "Namespace" not in scaled


@pytest.mark.parametrize(
    "text",
    ['{"summary": {}}', "[1, 2]", "not json", '{"format": "core-conformance-report/1"}'],
)
def test_report_refuses_a_report_json_that_is_not_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    (tmp_path / "report.json").write_text(text, encoding="utf-8")
    status = main(["report", str(tmp_path), "--html", str(tmp_path / "page.html")])
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1 and err.startswith("error: BAD_REPORT_DIR: ")
    assert not (tmp_path / "page.html").exists()


def test_compare_checks_everything_before_the_first_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["compare", "--engine-python", "reference.serve:ProtocolHandler", "--report"]
    status = main([*args, str(tmp_path / "runs"), "--id", "NO-SUCH-001"])
    assert status == 2
    assert (
        capsys.readouterr().err
        == "error: UNKNOWN_REQUIREMENT: unknown requirement ids: ['NO-SUCH-001']\n"
    )
    assert not any((tmp_path / "runs").iterdir())
