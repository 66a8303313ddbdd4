"""draw_collective(op, world_size): what a collective does to every rank's buffer, step by step.

Each rank's buffer is a row of N slots (N = world_size). Rank 0's values are called A, rank 1's B, and so on;
a slot is labelled with the ranks whose values it sums and the piece it holds: `AB1` is piece 1 of A's buffer
plus piece 1 of B's. Its colour deepens with the number of ranks summed in it; an empty slot is grey.

`op='ring_all_reduce'` shows how all_reduce is done without a central rank: N-1 steps of reduce-scatter (each
rank passes one piece to its right-hand neighbour, who adds it to its own) and N-1 steps of all-gather (the
finished pieces travel round the ring): 2(N-1) steps, each rank sending 2(N-1)/N of its buffer in all, whatever N.
"""

from __future__ import annotations

from viz.figure_view import FigureView
from viz.style import EMPTY_CELL, HEAT_DARK_FROM, heat_color

OPS = ("all_reduce", "broadcast", "reduce", "all_gather", "scatter", "reduce_scatter", "alltoall", "ring_all_reduce")


def _full(n: int) -> list:
    """Every rank holds its own buffer: slot c of rank r is ({r}, c)."""
    return [[(frozenset([r]), c) for c in range(n)] for r in range(n)]


def _summed(n: int, c: int):
    return (frozenset(range(n)), c)


def steps(op: str, world_size: int) -> list[tuple[str, list]]:
    """[(caption, state)], state[r][c] = (frozenset of source ranks, piece) or None, from before to after."""
    n = world_size
    if op not in OPS:
        raise ValueError(f"draw_collective: op must be one of {', '.join(OPS)}; got {op!r}")
    if not isinstance(n, int) or isinstance(n, bool) or not 2 <= n <= 8:
        raise ValueError(f"draw_collective: world_size must be an int from 2 to 8, got {n!r}")
    before = _full(n)
    if op == "all_reduce":
        after = [[_summed(n, c) for c in range(n)] for _ in range(n)]
        return [("before", before), ("all_reduce: every rank gets the sum", after)]
    if op == "broadcast":
        before = [[(frozenset([0]), c) for c in range(n)]] + [[None] * n for _ in range(n - 1)]
        return [("before", before), ("broadcast(src=0): every rank gets rank 0's buffer", [before[0]] * n)]
    if op == "reduce":
        after = [[_summed(n, c) for c in range(n)]] + before[1:]
        return [("before", before), ("reduce(dst=0): rank 0 gets the sum, the others keep theirs", after)]
    if op == "all_gather":
        before = [[(frozenset([r]), r) if c == r else None for c in range(n)] for r in range(n)]
        after = [[(frozenset([c]), c) for c in range(n)] for _ in range(n)]
        return [("before: rank r holds its piece r", before), ("all_gather: every rank gets every piece", after)]
    if op == "scatter":
        before = [[(frozenset([0]), c) for c in range(n)]] + [[None] * n for _ in range(n - 1)]
        after = [[(frozenset([0]), c) if c == r else None for c in range(n)] for r in range(n)]
        return [("before", before), ("scatter(src=0): rank r gets piece r of rank 0", after)]
    if op == "reduce_scatter":
        after = [[_summed(n, c) if c == r else None for c in range(n)] for r in range(n)]
        return [("before", before), ("reduce_scatter: rank r gets the sum of piece r", after)]
    if op == "alltoall":
        after = [[(frozenset([c]), r) for c in range(n)] for r in range(n)]
        return [("before", before), ("alltoall: rank r gets piece r of every rank, in rank order", after)]
    return _ring(n)


def _ring(n: int) -> list:
    """The ring all-reduce, simulated: at each step every rank sends one piece to rank r+1."""
    state = _full(n)
    out = [("before", [row[:] for row in state])]
    for s in range(n - 1):  # reduce-scatter: rank r sends piece (r - s) mod N, the receiver adds it to its own
        sent = [(r, (r - s) % n, state[r][(r - s) % n]) for r in range(n)]
        for r, c, (ranks, piece) in sent:
            mine = state[(r + 1) % n][c]
            state[(r + 1) % n][c] = (mine[0] | ranks, piece)
        out.append((f"reduce-scatter step {s + 1}: rank r sends piece (r-{s}) mod {n} to rank r+1, which adds it",
                    [row[:] for row in state]))  # fmt: skip
    for s in range(n - 1):  # all-gather: rank r sends its finished piece (r + 1 - s) mod N, the receiver keeps it
        sent = [(r, (r + 1 - s) % n, state[r][(r + 1 - s) % n]) for r in range(n)]
        for r, c, value in sent:
            state[(r + 1) % n][c] = value
        out.append((f"all-gather step {s + 1}: rank r passes the finished piece (r+1-{s}) mod {n} to rank r+1",
                    [row[:] for row in state]))  # fmt: skip
    return out


def label(slot, n: int) -> str:
    if slot is None:
        return ""
    ranks, piece = slot
    return "".join(chr(ord("A") + r) for r in sorted(ranks)) + str(piece)


def draw_collective(op: str, world_size: int = 4) -> FigureView:
    """Every rank's buffer before and after `op` (and each step of `ring_all_reduce`). Returns a FigureView.

    Args:
        op: one of all_reduce, broadcast, reduce, all_gather, scatter, reduce_scatter, alltoall, ring_all_reduce.
        world_size: the number of ranks (2 to 8).

    Example:
        >>> viz.draw_collective("ring_all_reduce", 4)     # 2(N-1) = 6 steps
    """
    rows = steps(op, world_size)
    n = world_size

    def draw(fig):
        axes = fig.subplots(len(rows), 1, squeeze=False)[:, 0]
        for ax, (caption, state) in zip(axes, rows):
            for r in range(n):
                for c in range(n):
                    slot = state[r][c]
                    heat = 0.0 if slot is None else 0.15 + 0.85 * (len(slot[0]) - 1) / max(n - 1, 1)
                    ax.add_patch(_rect(r * (n + 1) + c, EMPTY_CELL if slot is None else heat_color(heat)))
                    ink = "white" if heat > HEAT_DARK_FROM else "black"
                    ax.text(r * (n + 1) + c + 0.5, 0.5, label(slot, n), ha="center", va="center", fontsize=7, color=ink)
            ax.set_xlim(-0.2, n * (n + 1) - 0.8)
            ax.set_ylim(0, 1)
            ax.set_xticks([r * (n + 1) + n / 2 for r in range(n)])
            ax.set_xticklabels([f"rank {r}" for r in range(n)], fontsize=8)
            ax.set_yticks([])
            for side in ("top", "right", "left", "bottom"):
                ax.spines[side].set_visible(False)
            ax.set_title(caption, fontsize=9, loc="left")

    return FigureView(draw, (1.1 * n * (n + 1) / 2.5 + 1, 0.85 * len(rows) + 0.4), f"draw_collective {op}")


def _rect(x: float, color: str):
    from matplotlib.patches import Rectangle

    return Rectangle((x, 0.05), 0.95, 0.9, facecolor=color, edgecolor="#888888", linewidth=0.6)
