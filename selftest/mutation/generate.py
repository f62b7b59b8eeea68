"""Generate mutmut's mutants into ``mutants/``, running nothing.

``python -m selftest.mutation.generate``.

The CI sample and the verdict cache name mutants by key, which needs the generated
mutants; mutmut generates them only as the first step of ``mutmut run``. This runs that
step alone (the same functions, the same output), so the sample can be chosen before the
run. Unchanged files are left as they are, with their verdicts.
"""

from __future__ import annotations

import os
from pathlib import Path


def main() -> int:
    from mutmut.__main__ import create_mutants, store_lines_covered_by_tests
    from mutmut.mutation.trampoline import set_mutant_under_test
    from mutmut.utils.file_utils import copy_also_copy_files, copy_src_dir, setup_source_paths

    set_mutant_under_test("mutant_generation")
    Path("mutants").mkdir(exist_ok=True)
    copy_src_dir()
    copy_also_copy_files()
    setup_source_paths()
    store_lines_covered_by_tests()
    stats = create_mutants(max(1, min(2, os.cpu_count() or 1)))
    print(f"{stats.mutated} files mutated, {stats.unmodified} unmodified, {stats.ignored} ignored")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
