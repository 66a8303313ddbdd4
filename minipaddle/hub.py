"""paddle.hub: list, describe and build the models a repository offers in its hubconf.py.

A hub repository is a directory with a hubconf.py: each public callable in it is an entry point that builds a
model, and an optional `dependencies` list names the modules it needs. With source='local', repo_dir is that
directory, and hubconf.py is imported from it (its directory is on sys.path while it runs, so it can import its
neighbours). Paddle can also download repositories from GitHub or Gitee; this machine has no network access by
design, so source='github' and 'gitee' raise a ValueError that says so.

Example:
    >>> paddle.hub.list("path/to/repo", source="local")
    ['mlp']
    >>> model = paddle.hub.load("path/to/repo", "mlp", source="local", hidden=8)
"""

from __future__ import annotations

import importlib.util
import itertools
import os
import sys

__all__ = ["list", "help", "load"]

_HUBCONF = "hubconf.py"
_SOURCES = ("github", "gitee", "local")
_module_numbers = itertools.count()  # each import gets its own module name, so two repositories never clash


def _hub_module(fn: str, repo_dir, source: str, force_reload: bool):
    if source not in _SOURCES:
        raise ValueError(f'paddle.hub.{fn}: unknown source "{source}". Allowed values: "github" | "gitee" | "local".')
    if source != "local":
        raise ValueError(
            f"paddle.hub.{fn}: source={source!r} downloads {repo_dir!r} from {source}, but minipaddle has no network "
            f"access by design. Clone the repository by other means and pass its directory with source='local'."
        )
    if not isinstance(repo_dir, (str, os.PathLike)):
        raise TypeError(f"paddle.hub.{fn}: repo_dir must be a directory path, got {type(repo_dir).__name__}")
    repo_dir = os.path.abspath(os.fspath(repo_dir))
    path = os.path.join(repo_dir, _HUBCONF)
    if not os.path.isfile(path):
        raise RuntimeError(f"paddle.hub.{fn}: there is no {_HUBCONF} in {repo_dir!r}")

    spec = importlib.util.spec_from_file_location(f"_paddle_hubconf_{next(_module_numbers)}", path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, repo_dir)
    try:
        spec.loader.exec_module(module)
    except ImportError as e:
        raise RuntimeError(f"paddle.hub.{fn}: importing {path} failed: {e}") from e
    finally:
        sys.path.remove(repo_dir)
    return module


def _entry(fn: str, module, model):
    if not isinstance(model, str):
        raise ValueError(f"paddle.hub.{fn}: model must be a str naming a function in hubconf, got {model!r}")
    entry = getattr(module, model, None)
    if entry is None or not callable(entry):
        raise RuntimeError(f"paddle.hub.{fn}: cannot find callable {model!r} in hubconf")
    return entry


def _importable(name: str) -> bool:
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


def list(repo_dir, source: str = "github", force_reload: bool = False) -> list:  # noqa: A001 (Paddle's name)
    """The entry points of a hub repository: the public callables in its hubconf.py, sorted by name.

    Args:
        repo_dir (str): the repository's directory (source='local'); for 'github'/'gitee', 'owner/name[:tag]'.
        source (str): 'github' (the default, as in Paddle), 'gitee' or 'local'. Only 'local' works here.
        force_reload (bool): for downloads only; unused with 'local'.

    Returns:
        list[str]: the entry point names.
    """
    module = _hub_module("list", repo_dir, source, force_reload)
    return [name for name in dir(module) if callable(getattr(module, name)) and not name.startswith("_")]


def help(repo_dir, model: str, source: str = "github", force_reload: bool = False):  # noqa: A001 (Paddle's name)
    """The docstring of one entry point of a hub repository (None if it has none).

    Args:
        repo_dir (str): as for list. model (str): the entry point's name.
        source (str): 'github', 'gitee' or 'local'; only 'local' works here. force_reload (bool): unused.
    """
    module = _hub_module("help", repo_dir, source, force_reload)
    return _entry("help", module, model).__doc__


def load(repo_dir, model: str, source: str = "github", force_reload: bool = False, **kwargs):
    """Build a model with one entry point of a hub repository: `hubconf.<model>(**kwargs)`.

    Args:
        repo_dir (str): as for list. model (str): the entry point's name.
        source (str): 'github', 'gitee' or 'local'; only 'local' works here. force_reload (bool): unused.
        **kwargs: passed to the entry point.

    Raises:
        RuntimeError: a module named in hubconf's `dependencies` cannot be imported, or there is no such entry.
    """
    module = _hub_module("load", repo_dir, source, force_reload)
    missing = [name for name in getattr(module, "dependencies", None) or [] if not _importable(name)]
    if missing:
        raise RuntimeError(f"paddle.hub.load: missing dependencies: {', '.join(missing)}")
    return _entry("load", module, model)(**kwargs)
