"""Where the nodes of a multi-node job meet: a small key-value store over HTTP, as paddle 2.6's launch master.

`python -m minipaddle.distributed.launch --nnodes 2 --master ip:port train.py` is run once on every node. The
launcher on the master's host serves the store (`Store.serve`; the first launcher there to bind the port wins,
as in paddle's HTTPMaster); every launcher puts its node's description under `/<job_id>/nodes/` and waits until
all `--nnodes` are there (`sync_nodes`), which gives each node its rank and the ranks before it. Then each node's
launcher starts its own ranks with its own `mpiexec`, and those ranks join into one MPI communicator through the
same store (engine.joined_world: node 0's rank 0 opens an MPI port and puts its name here; the other nodes
connect to it). While the job runs, each launcher says here when its ranks failed or finished, so a failure on
one node ends the ranks of every node.

Keys and values are short strings (JSON for the node descriptions): nothing read from the store is executed.
"""

from __future__ import annotations

import json
import os
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

__all__ = ["Store", "rendezvous_timeout", "sync_nodes"]

_TIMEOUT_ENV = "MINIPADDLE_RENDEZVOUS_TIMEOUT"  # seconds the nodes wait for each other (default 600)


def rendezvous_timeout() -> float:
    return float(os.environ.get(_TIMEOUT_ENV, "600"))


class _Handler(BaseHTTPRequestHandler):
    """PUT /key stores the body; GET /prefix returns {key: value} of the keys starting with it (404 if none)."""

    def do_PUT(self) -> None:
        size = int(self.headers.get("Content-Length") or 0)
        value = self.rfile.read(size).decode("utf-8")
        with self.server.lock:
            self.server.kv[self.path] = value
        self._reply(200, b"")

    def do_GET(self) -> None:
        with self.server.lock:
            found = {k: v for k, v in self.server.kv.items() if k.startswith(self.path)}
        self._reply(200, json.dumps(found).encode()) if found else self._reply(404, b"")

    def _reply(self, code: int, body: bytes) -> None:
        self.send_response(code)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args) -> None:  # quiet: the launcher says what matters
        return


class Store:
    """A client of the store at `endpoint` ("ip:port"); `serve()` also serves it from this process."""

    def __init__(self, endpoint: str) -> None:
        host, sep, port = endpoint.rpartition(":")
        if not sep or not host or not port.isdigit():
            raise ValueError(f"rendezvous: the master must be 'ip:port', got {endpoint!r}")
        self.endpoint = endpoint
        self.host, self.port = host, int(port)
        self._server = None

    def serve(self) -> bool:
        """Serve the store here, in a thread; False when the port is taken (another launcher serves it)."""
        try:
            server = ThreadingHTTPServer((self.host, self.port), _Handler)
        except OSError:
            return False
        server.kv, server.lock = {}, threading.Lock()
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self._server = server
        return True

    @property
    def serving(self) -> bool:
        return self._server is not None

    def close(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def _url(self, key: str) -> str:
        return f"http://{self.host}:{self.port}{urllib.parse.quote(key)}"

    def put(self, key: str, value: str) -> None:
        request = urllib.request.Request(self._url(key), data=value.encode(), method="PUT")
        with urllib.request.urlopen(request, timeout=10):
            pass

    def get_prefix(self, prefix: str) -> dict:
        """{key: value} of every key starting with `prefix` ({} when none, or when the store is not up yet)."""
        try:
            with urllib.request.urlopen(self._url(prefix), timeout=10) as reply:
                return json.loads(reply.read())
        except urllib.error.HTTPError as e:
            if e.code == 404:
                return {}
            raise
        except (urllib.error.URLError, ConnectionError):
            return {}  # not served yet (the master node's launcher may start after this one)

    def wait(self, key: str, timeout: float | None = None, what: str = "") -> str:
        """The value of `key`, once some process has put it (polling); TimeoutError after `timeout` seconds."""
        timeout = rendezvous_timeout() if timeout is None else timeout
        deadline = time.monotonic() + timeout
        while True:
            found = self.get_prefix(key)
            if key in found:
                return found[key]
            if time.monotonic() > deadline:
                raise TimeoutError(f"rendezvous: waited {timeout:g} s at {self.endpoint} for {what or key} "
                                   f"({_TIMEOUT_ENV} sets the timeout)")  # fmt: skip
            time.sleep(0.1)


def sync_nodes(store: Store, job_id: str, nnodes: int, me: dict, node_rank: int = -1) -> tuple[list[dict], int]:
    """Put this node's description `me` and wait for all `nnodes`; returns every node's description in node
    order and this node's rank. A node given `node_rank` (launch's `--rank`) takes that place; otherwise the node
    serving the store is node 0 and the others follow in the order they arrived (paddle sorts random pod names)."""
    if nnodes < 2:
        return [me], 0
    prefix = f"/{job_id}/nodes/"
    if node_rank >= 0:
        key = f"{prefix}rank{node_rank:06d}"
    elif store.serving:
        key = f"{prefix}first"  # sorts before the arrival stamps (as paddle's 'aaaaaa')
    else:
        key = f"{prefix}then{time.time_ns():020d}.{os.getpid()}"
    me = dict(me, key=key)
    deadline = time.monotonic() + rendezvous_timeout()
    while True:  # the master node's launcher may not serve the store yet
        try:
            store.put(key, json.dumps(me))
            break
        except (urllib.error.URLError, ConnectionError):
            if time.monotonic() > deadline:
                raise TimeoutError(
                    f"rendezvous: no store at {store.endpoint} within {rendezvous_timeout():g} s (is the launcher of "
                    f"the master node running? {_TIMEOUT_ENV} sets the timeout)"
                ) from None
            time.sleep(0.2)
    while True:
        found = store.get_prefix(prefix)
        if len(found) >= nnodes:
            break
        if time.monotonic() > deadline:
            raise TimeoutError(
                f"rendezvous: {len(found)} of {nnodes} nodes arrived at {store.endpoint} within "
                f"{rendezvous_timeout():g} s (start the launcher on every node with the same --master and --nnodes; "
                f"{_TIMEOUT_ENV} sets the timeout)"
            )
        time.sleep(0.2)
    if len(found) > nnodes:
        raise RuntimeError(f"rendezvous: {len(found)} nodes arrived at {store.endpoint} for job {job_id!r}, but "
                           f"--nnodes is {nnodes}")  # fmt: skip
    nodes = [json.loads(found[k]) for k in sorted(found)]
    ranked = [k for k in sorted(found) if k.startswith(f"{prefix}rank")]
    if ranked and len(ranked) != nnodes:
        raise RuntimeError("rendezvous: give --rank on every node or on none")
    return nodes, [n["key"] for n in nodes].index(key)
