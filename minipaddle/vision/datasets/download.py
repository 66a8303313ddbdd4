"""Where dataset files live, and fetching them when asked (and when the network allows).

Files are kept under the data home: $MINIPADDLE_DATA_HOME if set, else ~/.cache/minipaddle/dataset, one
folder per dataset. A download goes to a temporary file that is renamed once complete and checked, so an
interrupted download never leaves a broken file behind.
"""

from __future__ import annotations

import hashlib
import os
import urllib.error
import urllib.request

from minipaddle.static.files import atomic_file

__all__ = ["data_home", "dataset_file"]

DOWNLOAD_TIMEOUT = 30  # seconds without progress before a download gives up


def data_home() -> str:
    return os.environ.get("MINIPADDLE_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".cache", "minipaddle",
                                                                  "dataset")  # fmt: skip


def dataset_file(url: str, md5: str | None, folder: str, download: bool, what: str) -> str:
    """The local path of the file behind `url`, downloading it first when it is missing and `download` is True.

    Raises a RuntimeError that says where to put the file when it is missing and cannot be downloaded.
    """
    path = os.path.join(data_home(), folder, url.rsplit("/", 1)[-1])
    if os.path.exists(path):
        return path
    where = (f"Download {url} yourself and put it at {path} (or set MINIPADDLE_DATA_HOME), or pass the "
             f"file's path to {what}.")  # fmt: skip
    if not download:
        raise RuntimeError(f"{what}: {path} does not exist and download=False. {where}")
    try:  # the file appears at `path` only once it is complete and its md5 is right
        with atomic_file(path) as out, urllib.request.urlopen(url, timeout=DOWNLOAD_TIMEOUT) as response:
            digest = hashlib.md5()
            for block in iter(lambda: response.read(1 << 20), b""):
                out.write(block)
                digest.update(block)
            if md5 is not None and digest.hexdigest() != md5:
                raise RuntimeError(f"{what}: the file downloaded from {url} is damaged (its md5 is not {md5}). {where}")
    except (urllib.error.URLError, OSError, ValueError) as e:
        raise RuntimeError(f"{what}: could not download {url} ({e}); the network may be unreachable from "
                           f"here. {where}") from None  # fmt: skip
    return path
