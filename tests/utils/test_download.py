"""paddle.utils.download and pretrained=True, against a local HTTP server on 127.0.0.1 (no network here):
files land in the cache only when complete with the right md5 sum; weights load through the restricted reader."""

from __future__ import annotations

import hashlib
import http.server
import os
import pickle
import threading

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.utils import download
from minipaddle.vision.models import pretrained


class _Handler(http.server.BaseHTTPRequestHandler):
    files: dict = {}  # path -> bytes
    cut: set = set()  # paths sent only in part (the announced length is the whole file)
    hits: list = []

    def do_GET(self):  # noqa: N802 (http.server's name)
        self.hits.append(self.path)
        data = self.files.get(self.path)
        if data is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data[: len(data) // 2] if self.path in self.cut else data)

    def log_message(self, *args):
        pass


@pytest.fixture
def server(tmp_path, monkeypatch):
    """(base URL, the handler's file table) for a server on 127.0.0.1; the weights cache is under tmp_path."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    _Handler.files, _Handler.cut, _Handler.hits = {}, set(), []
    monkeypatch.setattr(download, "WEIGHTS_HOME", str(tmp_path / "cache" / "paddle" / "hapi" / "weights"))
    monkeypatch.setattr(download, "DOWNLOAD_TIMEOUT", 10)
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", _Handler
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=10)


def md5(data: bytes) -> str:
    return hashlib.md5(data).hexdigest()


def cache_files() -> list:
    return sorted(os.listdir(download.WEIGHTS_HOME)) if os.path.isdir(download.WEIGHTS_HOME) else []


def test_get_weights_path_from_url_downloads_once_into_paddles_cache(server, capsys):
    base, handler = server
    data = os.urandom(300_000)
    handler.files["/models/w.pdparams"] = data
    path = download.get_weights_path_from_url(base + "/models/w.pdparams", md5(data))
    assert path == os.path.join(download.WEIGHTS_HOME, "w.pdparams")
    assert open(path, "rb").read() == data
    assert "Downloading w.pdparams" in capsys.readouterr().err  # the progress bar
    assert download.get_weights_path_from_url(base + "/models/w.pdparams", md5(data)) == path
    assert handler.hits == ["/models/w.pdparams"]  # found in the cache the second time


def test_a_wrong_checksum_leaves_no_file_and_says_so(server):
    base, handler = server
    handler.files["/w.pdparams"] = b"not the published file"
    with pytest.raises(RuntimeError, match="has md5 sum .*, not 0{32}: it is damaged .*nothing was kept"):
        download.get_weights_path_from_url(base + "/w.pdparams", "0" * 32)
    assert cache_files() == []


def test_a_partial_download_leaves_no_file_and_says_so(server):
    base, handler = server
    handler.files["/w.pdparams"] = os.urandom(200_000)
    handler.cut.add("/w.pdparams")
    with pytest.raises(RuntimeError, match="could not download .*nothing was kept|stopped after 100000 of 200000"):
        download.get_weights_path_from_url(base + "/w.pdparams", md5(handler.files["/w.pdparams"]))
    assert cache_files() == []
    with pytest.raises(RuntimeError, match="HTTPError"):
        download.get_weights_path_from_url(base + "/missing.pdparams")
    with pytest.raises(ValueError, match="not an http"):
        download.get_weights_path_from_url("/local/file.pdparams")


def test_a_damaged_cached_file_is_downloaded_again(server):
    base, handler = server
    data = b"weights" * 1000
    handler.files["/w.pdparams"] = data
    os.makedirs(download.WEIGHTS_HOME)
    with open(os.path.join(download.WEIGHTS_HOME, "w.pdparams"), "wb") as f:
        f.write(b"half")
    path = download.get_weights_path_from_url(base + "/w.pdparams", md5(data))
    assert open(path, "rb").read() == data and handler.hits == ["/w.pdparams"]


def test_pretrained_true_downloads_and_loads_paddles_weights(server, monkeypatch):
    base, handler = server
    source = paddle.vision.models.squeezenet1_1()
    for p in source.parameters():
        p.set_value(np.full(p.shape, 0.25, "float32"))
    path = download.WEIGHTS_HOME + "_src"
    os.makedirs(path)
    paddle.save(source.state_dict(), os.path.join(path, "sq.pdparams"))  # Paddle's own pickle format
    data = open(os.path.join(path, "sq.pdparams"), "rb").read()
    handler.files["/dygraph/SqueezeNet1_1_pretrained.pdparams"] = data
    monkeypatch.setitem(pretrained.MODEL_URLS, "squeezenet1_1", (base + "/dygraph/SqueezeNet1_1_pretrained.pdparams",
                                                                  md5(data)))  # fmt: skip
    model = paddle.vision.models.squeezenet1_1(pretrained=True)
    for key, value in model.state_dict().items():
        np.testing.assert_array_equal(value.numpy(), source.state_dict()[key].numpy())
    assert cache_files() == ["SqueezeNet1_1_pretrained.pdparams"]


class _Evil:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (exec, (f"open({self.marker!r}, 'w').close()",))


def test_downloaded_weights_that_would_run_code_are_refused(server, monkeypatch, tmp_path):
    base, handler = server
    marker = tmp_path / "pwned"
    data = pickle.dumps({"features.0.weight": _Evil(str(marker))}, protocol=2)
    handler.files["/evil.pdparams"] = data
    monkeypatch.setitem(pretrained.MODEL_URLS, "squeezenet1_1", (base + "/evil.pdparams", md5(data)))
    with pytest.raises(ValueError, match=r"refused.*__builtin__\.exec"):  # protocol 2 names Python 2 modules
        paddle.vision.models.squeezenet1_1(pretrained=True)
    assert not marker.exists()
