"""One node of a multi-node launch: `launch --nnodes N --master ip:port` (or `--ips h1,h2`) run on every node.

As paddle 2.6's launch: every node runs the same command; the nodes meet at the master (a key-value store served
by the launcher on the master's host, rendezvous.py), each learns its node rank and the number of ranks before
it, and starts its own `--nproc_per_node` ranks, with workerlog.<local rank> in its own log_dir. With `--ips`
(paddle's other form, no master) the node rank is this host's place in the list (or `--rank`, needed when the
list names one host twice, as two nodes on one machine do) and node 0's launcher serves the store at
`ips[0]:start_port`.

The ranks are MPI processes, but each node's come from its own `mpiexec`: they join into one communicator through
MPI's dynamic process calls (engine.join_nodes: Open_port / Accept on node 0, Connect on the others), the port's
name passed through the store. So no node needs to reach another by ssh (what one `mpiexec -hosts h1,h2` would
need), as with paddle's launch. MPI_Abort ends only one node's job, so each launcher watches the store: when the
ranks of one node fail, it says so there and the other launchers stop theirs, and every node exits with status 1.
A launcher that cannot say anything (SIGKILLed: its own ranks die with it, parent_death.py; or its host gone)
stops beating: every launcher puts a counter in the store every 0.3 s, and one whose counter has not changed for
MINIPADDLE_HEARTBEAT_TIMEOUT seconds (default 30) counts as gone, so the other nodes stop their ranks and exit 1.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time

from minipaddle.distributed import launcher
from minipaddle.distributed.rendezvous import Store, rendezvous_timeout, sync_nodes

__all__ = ["heartbeat_timeout", "host_ip", "node_rank_in_ips", "run_node"]

_HEARTBEAT_ENV = "MINIPADDLE_HEARTBEAT_TIMEOUT"  # seconds without a beat after which a node counts as gone


def heartbeat_timeout() -> float:
    value = os.environ.get(_HEARTBEAT_ENV, "30")
    try:
        seconds = float(value)
    except ValueError:
        raise ValueError(f"launch: {_HEARTBEAT_ENV} must be a number of seconds, got {value!r}") from None
    if not seconds > 0:
        raise ValueError(f"launch: {_HEARTBEAT_ENV} must be a number of seconds > 0, got {value!r}")
    return seconds


_LOCAL = ("127.0.0.1", "localhost", "0.0.0.0")


def host_ip() -> str:
    """This host's address as paddle's launch finds it (the address of its fully qualified name)."""
    try:
        return socket.gethostbyname(socket.getfqdn(socket.gethostname()))
    except OSError:
        return "127.0.0.1"


def node_rank_in_ips(ips: list[str], host: str, rank: int) -> int:
    """This node's rank in `--ips`: `--rank` when given, else the place of this host (`--host`, or its address)."""
    if rank >= 0:
        if rank >= len(ips):
            raise SystemExit(f"launch: --rank {rank} is not a node of --ips {','.join(ips)} ({len(ips)} nodes)")
        return rank
    if ips.count(host) == 1:
        return ips.index(host)
    if host in ips:
        raise SystemExit(f"launch: --ips names {host} {ips.count(host)} times (several nodes on one host): give each "
                         "node its --rank")  # fmt: skip
    raise SystemExit(f"launch: this host ({host}) is not in --ips {','.join(ips)}: give --host or --rank")


def run_node(args, per_node: int, nnodes: int, ips: list[str] | None) -> int:
    """Meet the other nodes, run this node's ranks, and watch the others; returns launch's exit status."""
    heartbeat_timeout()  # a bad setting is refused now, not once the ranks run
    host = args.host or host_ip()
    if ips:  # paddle's --ips form: the node rank is known, node 0 serves the store
        node_rank = node_rank_in_ips(ips, host, args.rank)
        store = Store(f"{ips[0]}:{args.start_port}")
        if node_rank == 0 and not store.serve():
            raise SystemExit(f"launch: node 0 cannot serve the rendezvous at {store.endpoint} (the port is in use)")
    else:
        node_rank = args.rank
        store = Store(args.master)
        if store.host in (*_LOCAL, host):
            store.serve()  # the first launcher on the master's host serves it (the port is taken for the others)
    me = {"host": host, "replicas": per_node, "pid": os.getpid()}
    print(f"launch: waiting at {store.endpoint} for {nnodes} nodes (job {args.job_id!r})", flush=True)
    try:
        nodes, node_rank = sync_nodes(store, args.job_id, nnodes, me, node_rank)
    except (TimeoutError, RuntimeError) as e:
        store.close()
        print(f"launch: {e}", file=sys.stderr, flush=True)
        return 1
    offset = sum(n["replicas"] for n in nodes[:node_rank])
    total = sum(n["replicas"] for n in nodes)
    env = _environment(args, nodes, node_rank, offset, total, per_node, store.endpoint)
    print(f"launch: node {node_rank} of {nnodes}: ranks {offset}..{offset + per_node - 1} of {total}; logs in "
          f"{args.log_dir}/workerlog.N", flush=True)  # fmt: skip
    run = launcher.RankRun(per_node, [args.training_script, *args.training_script_args], env, log_dir=args.log_dir,
                           echo_log=True, rank_offset=offset)  # fmt: skip
    status = _Status(store, args.job_id, node_rank, nnodes)
    try:
        code = _watch(run, status, args.log_dir)
        code = max(code, status.wait_for_all())
    finally:
        run.kill()
        if store.serving:
            status.wait_for_acknowledgements()
        store.close()
    return code


def _environment(args, nodes, node_rank, offset, total, per_node, master) -> dict:
    """Paddle's variables for this node's ranks (each rank's own, from its local rank, are set by rank_main)."""
    env = launcher.environment(per_node, "127.0.0.1", per_node, master)
    endpoints = [f"{n['host']}:{args.start_port + i}" for n in nodes for i in range(n["replicas"])]
    env.update(
        PADDLE_TRAINERS_NUM=str(total),
        PADDLE_GLOBAL_SIZE=str(total),
        PADDLE_TRAINER_ENDPOINTS=",".join(endpoints),
        PADDLE_NNODES=str(len(nodes)),
        PADDLE_LOG_DIR=args.log_dir,
        PADDLE_JOB_ID=args.job_id,
        MINIPADDLE_NNODES=str(len(nodes)),
        MINIPADDLE_NODE_RANK=str(node_rank),
        MINIPADDLE_RANK_OFFSET=str(offset),
    )
    return env


def _watch(run, status, log_dir: str) -> int:
    """Wait for this node's ranks, stopping them when another node's failed; say how ours ended."""
    while not run.poll():
        status.beat()
        failed = status.failed_elsewhere() or status.lost_nodes()
        if failed:
            run.kill()
            print(f"launch: stopped this node's ranks: {failed}", file=sys.stderr, flush=True)
            status.say("stopped")
            return 1
        time.sleep(0.3)
    outcome = run.wait()
    if outcome.ok:
        status.say("done")
        return 0
    text = outcome.describe(f"launch (node {status.node})")
    status.say("failed " + text)
    print(text, file=sys.stderr, flush=True)
    for r in outcome.failed_ranks():
        log = os.path.join(log_dir, f"workerlog.{r}")
        if r != 0 and os.path.exists(log):
            with open(log) as f:
                print(f"--- the end of {log} ---\n{''.join(f.readlines()[-15:])}", file=sys.stderr, flush=True)
    return 1


class _Status:
    """How each node's ranks ended, in the store: `/<job>/status/<node>` is done, failed <why>, or stopped."""

    def __init__(self, store: Store, job_id: str, node: int, nnodes: int) -> None:
        self.store, self.node, self.nnodes = store, node, nnodes
        self.prefix = f"/{job_id}/status/"
        self.seen = f"/{job_id}/seen/"
        self.beats = f"/{job_id}/beat/"
        self.told: set[int] = set()  # the nodes whose failure this launcher has printed already
        self.my_beats = 0
        # each other node's last beat counter, and when (on this node's clock: the hosts' clocks may differ) it
        # last changed; a node that never beats counts from now
        now = time.monotonic()
        self.heard = {n: (None, now) for n in range(nnodes) if n != node}
        self.lost: set[int] = set()  # the nodes found silent: no acknowledgement is awaited from them

    def beat(self) -> None:
        """Say in the store that this node's launcher is alive (a counter: no clocks are compared)."""
        self.my_beats += 1
        try:
            self.store.put(f"{self.beats}{self.node}", str(self.my_beats))
        except OSError:
            pass  # the node serving the store is gone: lost_nodes() will tell

    def lost_nodes(self) -> str:
        """The nodes not yet ended whose launcher has not beaten for the heartbeat timeout (killed, or its host
        gone; the store unreachable counts as every node silent), described for the message."""
        lost = self._silent(set(self._all()))
        timeout = heartbeat_timeout()
        return "; ".join(f"node {n} sent no heartbeat for {timeout:g} s (its launcher or host is gone; "
                         f"{_HEARTBEAT_ENV} sets the timeout)" for n in sorted(lost))  # fmt: skip

    def _silent(self, ended: set) -> set:
        now = time.monotonic()
        for key, value in self.store.get_prefix(self.beats).items():
            n = int(key.rsplit("/", 1)[1])
            if n in self.heard and self.heard[n][0] != value:
                self.heard[n] = (value, now)
        lost = {n for n, (_, when) in self.heard.items() if n not in ended and now - when > heartbeat_timeout()}
        self.lost |= lost
        return lost

    def say(self, what: str) -> None:
        try:
            self.store.put(f"{self.prefix}{self.node}", what)
        except OSError as e:  # the node serving the store is gone: the others cannot be told any more
            print(f"launch: could not tell the other nodes ({self.store.endpoint}: {e})", file=sys.stderr, flush=True)

    def _all(self) -> dict:
        return {int(k.rsplit("/", 1)[1]): v for k, v in self.store.get_prefix(self.prefix).items()}

    def failed_elsewhere(self) -> str:
        failed = {n: v for n, v in self._all().items() if n != self.node and v.startswith("failed")}
        self.told |= set(failed)
        return "; ".join(f"node {n} failed: {v.removeprefix('failed ')}" for n, v in sorted(failed.items()))

    def wait_for_all(self) -> int:
        """Wait (within the rendezvous timeout) until every node has said how it ended; 1 if any did not finish."""
        deadline = time.monotonic() + rendezvous_timeout()
        lost: set = set()
        while True:
            self.beat()  # the nodes still running watch this one too
            found = self._all()
            lost = self._silent(set(found))
            # this node knows how it ended even when it could not say so: with the serving node gone (its store
            # unreachable, so every other node silent) waiting on would only run out the rendezvous timeout
            if len(set(found) | lost | {self.node}) >= self.nnodes or time.monotonic() > deadline:
                break
            time.sleep(0.3)
        for n in sorted(lost):
            print(f"launch: node {n} sent no heartbeat for {heartbeat_timeout():g} s", file=sys.stderr, flush=True)
        try:
            self.store.put(f"{self.seen}{self.node}", json.dumps(sorted(found)))
        except OSError:
            pass  # the serving node has gone on already
        others = {n: v for n, v in found.items() if n != self.node}
        bad = {n: v for n, v in others.items() if v != "done"}
        if len(found) < self.nnodes:
            print(f"launch: only nodes {sorted(found)} of {self.nnodes} said how they ended", file=sys.stderr)
            return 1
        for n, v in sorted(bad.items()):
            if v.startswith("failed") and n not in self.told:
                print(f"launch: node {n} failed: {v.removeprefix('failed ')}", file=sys.stderr, flush=True)
        return 1 if bad else 0

    def wait_for_acknowledgements(self, timeout: float = 10.0) -> None:
        """The node serving the store keeps it until every node has read the others' statuses."""
        deadline = time.monotonic() + timeout
        while len(self.store.get_prefix(self.seen)) < self.nnodes - len(self.lost) and time.monotonic() < deadline:
            time.sleep(0.1)
