"""``python -m reference``: the command line of the reference engine (``reference.cli``).

The engine never calls a BLAS kernel (the algebra sums its own tables), so OpenBLAS is told
to start no worker threads: starting them is most of the CPU numpy's import costs.
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from reference.cli import main  # noqa: E402

raise SystemExit(main())
