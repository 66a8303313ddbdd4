"""paddle.utils.download: fetching Paddle's published files (pretrained weights) into Paddle's cache folder.

    path = paddle.utils.download.get_weights_path_from_url(url, md5sum)   # ~/.cache/paddle/hapi/weights/<name>

A download streams into a temporary file beside the target, with a progress bar, and is renamed into place only
when every byte the server announced has arrived and the md5 sum is right, so an interrupted or damaged download
never leaves a file in the cache (and the next call downloads again). Loading the weights then goes through
paddle.load's restricted reader: a downloaded file cannot run code.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tarfile
import urllib.error
import urllib.parse
import urllib.request
import zipfile

from minipaddle.static.files import atomic_file

__all__ = ["get_weights_path_from_url", "get_path_from_url", "is_url", "WEIGHTS_HOME"]

WEIGHTS_HOME = os.path.expanduser("~/.cache/paddle/hapi/weights")  # Paddle's own cache, shared with it
DOWNLOAD_TIMEOUT = 60  # seconds without data before a download gives up


def is_url(path) -> bool:
    """Whether `path` is an http(s) URL."""
    return isinstance(path, str) and path.startswith(("http://", "https://"))


def get_weights_path_from_url(url, md5sum=None) -> str:
    """The local path of the weights file at `url`, in Paddle's cache (~/.cache/paddle/hapi/weights), downloaded
    first unless it is there with the right md5 sum.

    Args:
        url (str): the file's URL.
        md5sum (str|None): its md5 sum (hex); None skips the check.

    Returns:
        str: the file's path.

    Raises RuntimeError when the download fails, is cut short, or has the wrong md5 sum (no file is left).

    Example:
        >>> from paddle.utils.download import get_weights_path_from_url
        >>> path = get_weights_path_from_url('https://paddle-hapi.bj.bcebos.com/models/resnet18.pdparams',
        ...                                  'cf548f46534aa3560945be4b95cd11c4')
    """
    return get_path_from_url(url, WEIGHTS_HOME, md5sum)


def get_path_from_url(url, root_dir, md5sum=None, check_exist=True, decompress=True, method="get") -> str:
    """Download the file at `url` into `root_dir` (unless it is there with the right md5 sum) and return its path;
    a zip or tar archive is then extracted there (safely: nothing is written outside `root_dir`) and the path of
    what it held is returned.

    Args:
        url (str): the URL.
        root_dir (str): the folder to download into.
        md5sum (str|None): the md5 sum (hex) to check; None skips the check.
        check_exist (bool): reuse a file already there (when its md5 sum is right).
        decompress (bool): extract a zip or tar archive.
        method (str): "get" (Paddle also has "wget"; minipaddle downloads with Python only).
    """
    if not is_url(url):
        raise ValueError(f"get_path_from_url: {url!r} is not an http(s) URL")
    if method != "get":
        raise ValueError(f"get_path_from_url: method must be 'get' (minipaddle downloads with Python), got {method!r}")
    if md5sum is not None and (not isinstance(md5sum, str) or len(md5sum) != 32):
        raise ValueError(f"get_path_from_url: md5sum must be 32 hex digits, got {md5sum!r}")
    name = os.path.basename(urllib.parse.urlparse(url).path)
    if not name:
        raise ValueError(f"get_path_from_url: {url!r} does not name a file")
    path = os.path.join(os.fspath(root_dir), name)
    if not (check_exist and os.path.isfile(path) and _md5_ok(path, md5sum)):
        _download(url, path, md5sum)
    if decompress and (zipfile.is_zipfile(path) or tarfile.is_tarfile(path)):
        return _extract(path, os.fspath(root_dir))
    return path


def _md5_ok(path: str, md5sum) -> bool:
    return md5sum is None or _md5(path) == md5sum


def _md5(path: str) -> str:
    digest = hashlib.md5()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _progress(total, name: str):
    from tqdm import tqdm

    return tqdm(total=total, unit="B", unit_scale=True, desc=f"Downloading {name}", file=sys.stderr, leave=False)


def _download(url: str, path: str, md5sum) -> None:
    """Stream `url` into `path`, all or nothing: the file appears only when complete with the right md5 sum."""
    name = os.path.basename(path)
    try:
        with urllib.request.urlopen(url, timeout=DOWNLOAD_TIMEOUT) as response, atomic_file(path) as out:
            length = response.headers.get("Content-Length")
            total = int(length) if length and length.isdigit() else None
            digest, received = hashlib.md5(), 0
            with _progress(total, name) as bar:
                for block in iter(lambda: response.read(1 << 16), b""):
                    out.write(block)
                    digest.update(block)
                    received += len(block)
                    bar.update(len(block))
            if total is not None and received != total:
                raise RuntimeError(f"the download of {url} stopped after {received} of {total} bytes")
            if md5sum is not None and digest.hexdigest() != md5sum:
                raise RuntimeError(
                    f"the file downloaded from {url} has md5 sum {digest.hexdigest()}, not {md5sum}: it is damaged "
                    "or not the published file; nothing was kept"
                )
    except RuntimeError as e:
        raise RuntimeError(f"paddle.utils.download: {e}") from None
    except (urllib.error.URLError, OSError, ValueError) as e:  # includes http.client's IncompleteRead
        raise RuntimeError(
            f"paddle.utils.download: could not download {url} ({type(e).__name__}: {e}); nothing was kept. Without "
            f"network access, put the file at {path} yourself"
        ) from None


def _extract(path: str, root: str) -> str:
    """Extract an archive into `root` (tar's 'data' filter and zipfile both refuse paths leaving it)."""
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as zf:
            names = zf.namelist()
            zf.extractall(root)
    else:
        with tarfile.open(path) as tf:
            names = tf.getnames()
            tf.extractall(root, filter="data")
    tops = {n.split("/", 1)[0] for n in names if n}
    return os.path.join(root, tops.pop()) if len(tops) == 1 else root
