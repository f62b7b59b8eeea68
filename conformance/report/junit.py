"""JUnit XML: one test case per requirement, for CI dashboards."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any


def _engine_fault_case(suite: ET.Element, fault: dict[str, Any]) -> None:
    """The one engine-level verdict as one errored test case."""
    suite.set("tests", str(int(suite.attrib["tests"]) + 1))
    suite.set("errors", str(int(suite.attrib["errors"]) + 1))
    case = ET.SubElement(suite, "testcase", classname="conformance.engine", name=fault["code"])
    output = "\n".join(["stderr:", *fault["stderr_tail"], "stdout:", *fault["stdout_tail"]])
    error = ET.SubElement(case, "error", message=fault["message"][:500], type=fault["kind"])
    error.text = output


def render_junit(report: dict[str, Any]) -> str:
    """The report as a JUnit XML document (failures, errors and skips by requirement id)."""
    summary = report["summary"]
    suite = ET.Element(
        "testsuite",
        name="core-conformance",
        tests=str(summary["total"]),
        failures=str(summary["failed"] + summary["xpassed"]),
        errors=str(summary["errors"]),
        skipped=str(summary["not_claimed"] + summary["xfailed"]),
        time=f"{sum(r['duration_ms'] for r in report['results']) / 1000:.3f}",
    )
    for r in report["results"]:
        case = ET.SubElement(
            suite,
            "testcase",
            classname=f"conformance.{r['family']}",
            name=r["id"],
            time=f"{r['duration_ms'] / 1000:.3f}",
        )
        outcome = r["outcome"]
        if outcome == "fail":
            ET.SubElement(case, "failure", message=r["message"][:500]).text = r["message"]
        elif outcome == "xpass":
            ET.SubElement(case, "failure", message="unexpected pass of an expected failure")
        elif outcome == "error":
            ET.SubElement(case, "error", message=r["message"][:500], type=r["fault"] or "error")
        elif outcome in ("not-claimed", "xfail"):
            reason = r["message"] if outcome == "not-claimed" else r["expected_failure"]
            ET.SubElement(case, "skipped", message=f"{outcome}: {reason}")
    if report.get("engine_fault"):
        _engine_fault_case(suite, report["engine_fault"])
    ET.indent(suite)
    return ET.tostring(suite, encoding="unicode", xml_declaration=True) + "\n"
