"""Without mpi4py, `import paddle.distributed` says what to install (and plain `import minipaddle` still works)."""

from __future__ import annotations

import subprocess
import sys

# A child interpreter in which mpi4py cannot be imported: None in sys.modules is Python's own way to block a module
# (find_spec gives None and import raises ModuleNotFoundError), as on a machine without it.
HIDE_MPI4PY = """
import sys

sys.modules["mpi4py"] = None
import minipaddle as paddle
paddle.ones([1])  # the framework itself does not need MPI
try:
    import minipaddle.distributed
except ImportError as error:
    print("ImportError:", error)
else:
    print("imported")
"""


def test_importing_distributed_without_mpi4py_says_what_to_install():
    done = subprocess.run([sys.executable, "-c", HIDE_MPI4PY], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = done.stdout.strip()
    assert out.startswith("ImportError: paddle.distributed needs mpi4py"), out
    assert "pip install 'minipaddle[distributed]'" in out and "mpi4py mpich" in out
