"""`python -m minipaddle.distributed.launch [options] train.py [args]` (also the `fleetrun` and `minipaddle-launch`
commands).

Starts `--nproc_per_node` ranks of train.py through MPI's launcher, with Paddle's environment variables; each
rank's output goes to `--log_dir`/workerlog.N, and rank 0's is echoed here. Exits with status 0 when every rank
finished, else 1 after naming the rank that failed. With several nodes (`--nnodes N --master ip:port`, or
`--ips ip1,ip2`) the command is run on every node, as paddle's; see launch/nodes.py.
"""

from __future__ import annotations

import argparse
import os
import sys

from minipaddle.distributed import launcher
from minipaddle.distributed.launch import nodes

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    env = os.environ.get
    p = argparse.ArgumentParser(prog="python -m minipaddle.distributed.launch", description=__doc__.split("\n\n")[0])
    p.add_argument("--master", default=env("PADDLE_MASTER"),
                   help="ip:port where the nodes meet (the launcher on that host serves it)")  # fmt: skip
    p.add_argument("--legacy", action="store_true", help="accepted (one launcher here)")
    p.add_argument("--rank", type=int, default=int(env("PADDLE_RANK", "-1")),
                   help="this node's rank (default: by arrival, or this host's place in --ips)")  # fmt: skip
    p.add_argument("--log_level", default=env("PADDLE_LOG_LEVEL", "INFO"))
    p.add_argument("--log_overwrite", action="store_true", help="accepted (logs are always rewritten)")
    p.add_argument("--nnodes", default=env("PADDLE_NNODES", "1"), help="number of nodes (each runs this command)")
    p.add_argument("--nproc_per_node", type=int, default=int(env("PADDLE_NPROC_PER_NODE", "0")) or None,
                   help="ranks per host (default: as many as --devices lists, else 1)")  # fmt: skip
    p.add_argument("--log_dir", default=env("PADDLE_LOG_DIR", "log"), help="where workerlog.N go (default log)")
    p.add_argument("--run_mode", default=env("PADDLE_RUN_MODE", "collective"), choices=["collective"])
    p.add_argument("--job_id", default=env("PADDLE_JOB_ID", "default"))
    p.add_argument("--devices", "--gpus", "--xpus", dest="devices", default=env("PADDLE_DEVICES"),
                   help="comma-separated device ids: their count is the default --nproc_per_node")  # fmt: skip
    p.add_argument("--host", default=None, help="this node's ip (default: the address of its host name)")
    p.add_argument("--ips", default=env("PADDLE_IPS", "127.0.0.1"),
                   help="comma-separated ips of the nodes (each runs this command)")  # fmt: skip
    p.add_argument("--start_port", type=int, default=int(env("FLAGS_START_PORT", "6170")))
    p.add_argument("training_script", help="the script every rank runs")
    p.add_argument("training_script_args", nargs=argparse.REMAINDER)
    return p


def main(argv=None) -> int:
    """Run the launcher; returns (and, as a command, exits with) 0 when every rank finished."""
    args = _parser().parse_args(argv)
    hosts = [h for h in args.ips.split(",") if h]
    per_node = args.nproc_per_node or (len(args.devices.split(",")) if args.devices else 1)
    if per_node < 1:
        raise SystemExit(f"launch: --nproc_per_node must be at least 1, got {per_node}")
    if not os.path.exists(args.training_script):
        raise SystemExit(f"launch: training script {args.training_script!r} not found")
    nnodes = _nnodes(args.nnodes)
    if len(hosts) > 1:
        if nnodes not in (1, len(hosts)):
            raise SystemExit(f"launch: --nnodes {nnodes} but --ips names {len(hosts)} nodes")
        return nodes.run_node(args, per_node, len(hosts), hosts)
    if nnodes > 1:
        if not args.master:
            raise SystemExit(f"launch: --nnodes {nnodes} needs --master ip:port (where the nodes meet) or --ips")
        return nodes.run_node(args, per_node, nnodes, None)
    nprocs = per_node * len(hosts)
    env = launcher.environment(nprocs, args.ips, per_node, args.master)
    env["PADDLE_LOG_DIR"] = args.log_dir
    env["PADDLE_JOB_ID"] = args.job_id
    print(f"launch: {nprocs} ranks ({per_node} per host on {', '.join(hosts)}); logs in {args.log_dir}/workerlog.N",
          flush=True)  # fmt: skip
    run = launcher.RankRun(nprocs, [args.training_script, *args.training_script_args], env, ips=args.ips,
                           log_dir=args.log_dir, echo_log=True)  # fmt: skip
    outcome = run.wait()
    if outcome.ok:
        return 0
    print(outcome.describe("launch"), file=sys.stderr, flush=True)
    for r in outcome.failed_ranks():
        log = os.path.join(args.log_dir, f"workerlog.{r}")
        if r != 0 and os.path.exists(log):
            with open(log) as f:
                tail = f.readlines()[-15:]
            print(f"--- the end of {log} ---\n{''.join(tail)}", file=sys.stderr, flush=True)
    return 1


def _nnodes(text: str) -> int:
    """--nnodes: a number of nodes (paddle's elastic range 'min:max' is refused: no elastic training here)."""
    if not str(text).isdigit() or int(text) < 1:
        raise SystemExit(f"launch: --nnodes must be a positive number of nodes, got {text!r} (elastic ranges "
                         "'min:max' are not supported)")  # fmt: skip
    return int(text)


def console_main() -> None:
    """The `fleetrun` and `minipaddle-launch` commands (pyproject.toml's scripts). No `paddle` command: installed
    beside a real paddle it would replace paddle's own."""
    sys.exit(main())
