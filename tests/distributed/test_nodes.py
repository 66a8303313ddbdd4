"""Multi-node launch on one machine: two launchers as two "nodes" meet at the master and their ranks (each
node's from its own mpiexec) join into one MPI job; a failing rank on one node ends both. Plus the rendezvous
store and the launch arguments, in process."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from minipaddle.distributed import rendezvous
from minipaddle.distributed.launch import main as launch_main
from minipaddle.distributed.launch.nodes import node_rank_in_ips
from tests.distributed import nodes_script
from tests.distributed.test_collectives import _alive
from tests.distributed.test_launch import _env

SCRIPT = str(Path(nodes_script.__file__))
TIMEOUT = 150  # seconds both launchers may take before the test kills them and fails


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _two_nodes(tmp_path, per_node: tuple[int, int], how: list[list[str]], *script_args) -> list:
    """Start two launchers at once (as two nodes would), each with its own log dir; their finished processes."""
    env = dict(_env(), MINIPADDLE_RENDEZVOUS_TIMEOUT="60", MINIPADDLE_COLLECTIVE_TIMEOUT="60")
    procs = []
    for node in (0, 1):
        cmd = [sys.executable, "-m", "minipaddle.distributed.launch", *how[node], "--nproc_per_node",
               str(per_node[node]), "--log_dir", str(tmp_path / f"log{node}"), SCRIPT, *script_args]  # fmt: skip
        procs.append(subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      text=True, start_new_session=True))  # fmt: skip
    done = []
    try:
        for p in procs:
            out, err = p.communicate(timeout=TIMEOUT)
            done.append((p.returncode, out, err))
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    return done


def test_two_launchers_meet_at_the_master_and_their_ranks_form_one_job(tmp_path):
    master = f"127.0.0.1:{_free_port()}"
    how = [["--nnodes", "2", "--master", master]] * 2
    done = _two_nodes(tmp_path, (2, 1), how)
    for code, out, err in done:
        assert code == 0, out + err
    logs = "".join(p.read_text() for p in sorted(tmp_path.glob("log*/workerlog.*")))
    for r in range(3):
        assert f"rank {r} of 3" in logs, logs
    # whichever launcher serves the store is node 0; the other node's ranks come after node 0's
    placed = {}
    for (_, out, _), per_node in zip(done, (2, 1)):
        node, first, last = map(int, re.search(r"node (\d) of 2: ranks (\d+)\.\.(\d+) of 3", out).groups())
        assert last - first + 1 == per_node
        placed[node] = (first, last)
    assert placed[0][0] == 0 and placed[1] == (placed[0][1] + 1, 2), placed
    assert len(list(tmp_path.glob("log*/workerlog.*"))) == 3  # workerlog.<local rank> on each node


@pytest.mark.slow
def test_ips_with_node_ranks_and_a_failing_rank_on_one_node_ends_both(tmp_path):
    ips = ["--ips", "127.0.0.1,127.0.0.1", "--start_port", str(_free_port())]
    done = _two_nodes(tmp_path, (1, 1), [[*ips, "--rank", "0"], [*ips, "--rank", "1"]], "fail")
    (code0, out0, err0), (code1, out1, err1) = done
    assert code0 == 1 and code1 == 1, (out0, err0, out1, err1)
    assert "launch (node 1): rank 1 raised RuntimeError: rank 1 of the second node cannot go on" in err1, err1
    assert "node 1 failed: launch (node 1): rank 1 raised RuntimeError" in err0, err0  # node 0 names it
    assert "stopped this node's ranks" in err0  # node 0's rank was waiting in a collective: stopped, no hang


def test_the_store_gives_every_node_its_rank_the_server_first():
    port = _free_port()
    server = rendezvous.Store(f"127.0.0.1:{port}")
    assert server.serve()
    assert not rendezvous.Store(f"127.0.0.1:{port}").serve()  # the port is taken: another launcher serves
    results = {}

    def node(name, store):
        results[name] = rendezvous.sync_nodes(store, "job", 3, {"host": name, "replicas": 1})

    try:
        threads = [threading.Thread(target=node, args=(n, rendezvous.Store(f"127.0.0.1:{port}"))) for n in "bc"]
        for t in threads:
            t.start()
        node("a", server)
        for t in threads:
            t.join(30)
    finally:
        server.close()
    nodes, rank = results["a"]
    assert rank == 0 and nodes[0]["host"] == "a"
    assert sorted(r for _, r in results.values()) == [0, 1, 2]
    assert all(n == nodes for n, _ in results.values())  # every node sees the same list in the same order


def test_a_node_that_waits_alone_times_out(monkeypatch):
    monkeypatch.setenv("MINIPADDLE_RENDEZVOUS_TIMEOUT", "0.5")
    store = rendezvous.Store(f"127.0.0.1:{_free_port()}")
    assert store.serve()
    try:
        with pytest.raises(TimeoutError, match="1 of 2 nodes arrived"):
            rendezvous.sync_nodes(store, "job", 2, {"host": "a", "replicas": 1})
    finally:
        store.close()


def test_launch_arguments_for_several_nodes_are_checked(tmp_path):
    script = tmp_path / "train.py"
    script.write_text("")
    with pytest.raises(SystemExit, match="needs --master"):
        launch_main(["--nnodes", "2", str(script)])
    with pytest.raises(SystemExit, match="elastic ranges"):
        launch_main(["--nnodes", "2:4", "--master", "127.0.0.1:1", str(script)])
    with pytest.raises(SystemExit, match="--ips names 2 nodes"):
        launch_main(["--nnodes", "3", "--ips", "127.0.0.1,127.0.0.2", str(script)])
    with pytest.raises(SystemExit, match="give each node its --rank"):
        node_rank_in_ips(["127.0.0.1", "127.0.0.1"], "127.0.0.1", -1)
    assert node_rank_in_ips(["10.0.0.1", "10.0.0.2"], "10.0.0.2", -1) == 1
    with pytest.raises(SystemExit, match="not a node of --ips"):
        node_rank_in_ips(["10.0.0.1", "10.0.0.2"], "10.0.0.2", 2)
    with pytest.raises(ValueError, match="must be 'ip:port'"):
        rendezvous.Store("127.0.0.1")


@pytest.mark.slow
@pytest.mark.parametrize("killed", [1, 0])
def test_a_sigkilled_launcher_of_one_node_stops_the_other_within_the_heartbeat_timeout(tmp_path, killed):
    """One node's launcher is SIGKILLed while every rank sleeps: its rank dies with it (parent_death), and the
    other, hearing no heartbeat for 3 s, stops its own rank and exits 1 naming it. Node 0's launcher serves the
    store: killed, node 1's heartbeat goes through a store that no longer answers, which counts as silence."""
    other = 1 - killed
    ips = ["--ips", "127.0.0.1,127.0.0.1", "--start_port", str(_free_port())]
    env = dict(_env(), MINIPADDLE_RENDEZVOUS_TIMEOUT="60", MINIPADDLE_HEARTBEAT_TIMEOUT="3")
    procs = [
        subprocess.Popen([sys.executable, "-m", "minipaddle.distributed.launch", *ips, "--rank", str(node),
                          "--nproc_per_node", "1", "--log_dir", str(tmp_path / f"log{node}"), SCRIPT, "hang"],
                         cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
        for node in (0, 1)
    ]  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while len(list(tmp_path.glob("pid.*"))) < 2:
            assert all(p.poll() is None for p in procs), "a launcher ended before the ranks joined"
            assert time.monotonic() < deadline, "the two nodes' ranks did not join within 120 s"
            time.sleep(0.2)
        time.sleep(0.3)
        pids = [int(p.read_text()) for p in tmp_path.glob("pid.*")]
        procs[killed].send_signal(signal.SIGKILL)
        start = time.monotonic()
        out, err = procs[other].communicate(timeout=60)
        assert time.monotonic() - start < 3 + 7, f"node {other} took too long to notice"
        assert procs[other].returncode == 1, (out, err)
        assert f"node {killed} sent no heartbeat for 3 s" in err, err
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in pids if _alive(pid)], "a rank was left behind"
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
            p.communicate()
        for path in tmp_path.glob("pid.*"):  # the ranks this test started, should they be left behind
            pid = int(path.read_text() or 0)
            if pid and _alive(pid):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("value", ["soon", "0"])
def test_a_bad_heartbeat_timeout_is_refused_before_the_nodes_meet(monkeypatch, tmp_path, value):
    monkeypatch.setenv("MINIPADDLE_HEARTBEAT_TIMEOUT", value)
    script = tmp_path / "train.py"
    script.write_text("")
    with pytest.raises(ValueError, match="MINIPADDLE_HEARTBEAT_TIMEOUT must be a number of seconds"):
        launch_main(["--nnodes", "2", "--master", f"127.0.0.1:{_free_port()}", str(script)])
