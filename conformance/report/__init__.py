"""Reports: report.json for machines, a Markdown certificate for people, JUnit XML for CI."""
