"""paddle.utils: small helpers for code written against Paddle: deprecated, require_version, run_check,
try_import, and the unique_name submodule."""

from minipaddle.utils import dlpack, download, unique_name  # noqa: F401  (paddle.utils.dlpack, .download, .unique_name)
from minipaddle.utils.deprecated import deprecated  # (the module first, then the decorator under its name)
from minipaddle.utils.install_check import run_check
from minipaddle.utils.versions import require_version, try_import

__all__ = ["deprecated", "run_check", "require_version", "try_import"]
