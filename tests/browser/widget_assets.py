"""The widget renderer for pages opened without a network: @jupyter-widgets/html-manager's dist/embed.js.

An exported notebook normally loads it from a CDN. Here it is fetched once with npm's own client from the npm
registry (`npm pack`, the version range the installed ipywidgets names), unpacked into build/widget-assets/ and
served from disk, so the browser test reaches no CDN at all.
"""

from __future__ import annotations

import fcntl
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ASSETS = ROOT / "build" / "widget-assets"
PACKAGE = "@jupyter-widgets/html-manager"


def html_manager_range() -> str:
    from ipywidgets._version import __html_manager_version__

    return __html_manager_version__


def ensure_widget_assets() -> Path:
    """build/widget-assets/ holding embed.js and the fonts it loads; fetched once, then reused."""
    ASSETS.mkdir(parents=True, exist_ok=True)
    with open(ASSETS / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (ASSETS / "embed.js").exists():
            return ASSETS
        npm = shutil.which("npm")
        if npm is None:
            raise RuntimeError("the browser test needs npm to fetch the widget renderer: apt-get install -y npm")
        with tempfile.TemporaryDirectory() as tmp:
            spec = f"{PACKAGE}@{html_manager_range()}"
            done = subprocess.run([npm, "pack", spec, "--pack-destination", tmp, "--silent"], capture_output=True,
                                  text=True, timeout=300)  # fmt: skip
            if done.returncode != 0:
                raise RuntimeError(f"npm pack {spec} failed:\n{done.stderr}")
            (tarball,) = Path(tmp).glob("*.tgz")
            with tarfile.open(tarball) as tar:
                members = [m for m in tar.getmembers() if m.isfile() and m.name.startswith("package/dist/")]
                for m in members:
                    m.name = m.name[len("package/dist/") :]
                    if "/" not in m.name and not m.name.endswith(".map"):
                        tar.extract(m, ASSETS, filter="data")
        return ASSETS
