"""Mixed precision, seen: which dtype each op ran in, where AMP cast, how the loss scale moved, why it exists.

    viz.draw_amp(loss)                  the autograd graph, each op coloured by the dtype it computed in, the casts
                                        auto_cast inserted as small diamonds, each op's list (white/black/gray)
    viz.draw_amp(program)               the same for a static Program (after paddle.static.passes.amp_cast)
    viz.amp_stats(stats)                collect_operator_stats' table as a bar chart (calls per op and dtype)
    viz.plot_loss_scale(scaler)         the loss scale over steps (GradScaler.history), skipped steps marked
    viz.plot_grad_range(model)          gradient magnitudes against float16's range (smallest normal, largest)

Reads only minipaddle's public introspection: the autograd graph (minipaddle.autograd), Programs, the AMP cast log
helpers (paddle.amp.is_amp_cast, paddle.amp.list_of_op, paddle.amp.paddle_op_name) and GradScaler.history.
"""

from __future__ import annotations

import math

import minipaddle as paddle
from minipaddle.autograd import graph_nodes
from viz import dot, style
from viz.render import View

__all__ = ["draw_amp", "amp_stats", "plot_loss_scale", "plot_grad_range"]

DTYPE_FILL = {"float16": "#f4cccc", "bfloat16": "#fce5cd", "float32": "#cfe2f3", "float64": "#d9d2e9"}
CAST = {"shape": "diamond", "style": "filled", "fillcolor": "#ffd966", "color": "#bf9000", "fontsize": "8",
        "width": "0.3", "height": "0.3"}  # fmt: skip
LIST_MARK = {"white": "W", "black": "B", "gray": "G"}
FP16_MIN_NORMAL, FP16_MAX = 6.103515625e-05, 65504.0


def draw_amp(target, level: str = "O1", dtype: str = "float16", depth: int | None = None) -> View:
    """Draw where mixed precision ran: ops filled by the dtype they computed in, AMP's casts as diamonds.

    Args:
        target: a Tensor (its autograd graph, made under paddle.amp.auto_cast) or a static Program.
        level, dtype: the lists named in the labels (W white, B black, G gray: the promote rule decides).
        depth: fold Layer scopes deeper than this into one box per scope (with its dtype counts); None: every op.

    Example:
        >>> with paddle.amp.auto_cast():
        ...     loss = model(x).mean()
        >>> viz.draw_amp(loss).save("amp.svg")
    """
    if depth is not None and (not isinstance(depth, int) or isinstance(depth, bool) or depth < 1):
        raise ValueError(f"draw_amp: depth must be a positive int or None, got {depth!r}")
    if isinstance(target, paddle.Tensor):
        items = _graph_items(target)
    elif isinstance(target, paddle.static.Program):
        items = _program_items(target)
    else:
        raise TypeError(f"draw_amp: expected a Tensor or a paddle.static.Program, got {type(target).__name__}")
    g = dot.Digraph("amp", graph=style.GRAPH, node=style.NODE, edge=style.EDGE)
    shown = {}  # item id -> drawn id (itself, or its folded scope)
    folded: dict[str, dict] = {}
    clusters: dict[str, list] = {}
    for it in items:
        path = [p for p in it["scope"].split(".") if p] if it["scope"] else []
        if depth is not None and len(path) >= depth and not it["cast"]:
            key = ".".join(path[:depth])
            box = folded.setdefault(key, {"id": f"f{len(folded)}", "dtypes": {}})
            box["dtypes"][it["dtype"]] = box["dtypes"].get(it["dtype"], 0) + 1
            shown[it["id"]] = box["id"]
            continue
        shown[it["id"]] = it["id"]
        clusters.setdefault(".".join(path), []).append(it)
    for k, (scope, members) in enumerate(clusters.items()):
        if scope:
            with g.cluster(f"s{k}", label=scope, **style.SCOPE_CLUSTER) as box:
                _emit(box, members, level, dtype)
        else:
            _emit(g, members, level, dtype)
    for key, box in folded.items():
        counts = ", ".join(f"{k}: {v}" for k, v in sorted(box["dtypes"].items()))
        g.node(box["id"], label=f"{key}\n{counts}", **style.FOLDED)
    edges = set()
    for it in items:
        for src in it["inputs"]:
            a, b = shown.get(src), shown[it["id"]]
            if a is not None and a != b and (a, b) not in edges:
                edges.add((a, b))
                g.edge(a, b)
    _legend(g)
    return View(g.source(), title="amp")


def _emit(g, members: list, level: str, dtype: str) -> None:
    for it in members:
        if it["cast"]:
            g.node(it["id"], label=f"cast\n{it['dtype']}", **CAST)
            continue
        mark = LIST_MARK[paddle.amp.list_of_op(it["paddle_op"], level, dtype)]
        label = f"{it['op']} [{mark}]\n{it['paddle_op']}\n{it['dtype']}"
        g.node(it["id"], label=label, **{**style.OP, "fillcolor": DTYPE_FILL.get(it["dtype"], "#eeeeee")})


def _graph_items(loss) -> list:
    nodes = list(reversed(graph_nodes([loss])))
    ids = {id(n): f"n{i}" for i, n in enumerate(nodes)}
    items = []
    for n in nodes:
        dtypes_ = [d.name for d in n.output_dtypes]
        out = dtypes_[0] if dtypes_ else ""
        inputs = [ids[id(s)] for s in n.next_nodes if id(s) in ids]
        items.append({"id": ids[id(n)], "op": n.type, "paddle_op": paddle.amp.paddle_op_name(n.type, n.attrs),
                      "dtype": out, "cast": paddle.amp.is_amp_cast(n), "scope": n.scope, "inputs": inputs})  # fmt: skip
    return items


def _program_items(program) -> list:
    block = program.global_block()
    made_by, items = {}, []
    for i, op in enumerate(block.ops):
        outs = [n for n in op.output_names() if n and block.has_var(n)]
        dtype = block.var(outs[0]).dtype.name if outs else ""
        is_cast = op.type == "cast" and any(".cast_" in n for n in outs)  # the amp_cast pass names its casts so
        inputs = [made_by[n] for n in op.input_names() if n in made_by]
        scope = op.scope.replace("/", ".")
        items.append({"id": f"op{i}", "op": op.type, "paddle_op": paddle.amp.paddle_op_name(op.type, op.attrs),
                      "dtype": dtype, "cast": is_cast, "scope": scope, "inputs": inputs})  # fmt: skip
        for n in outs:
            made_by[n] = f"op{i}"
    return items


def _legend(g) -> None:
    with g.cluster("legend", label="dtype / list", **style.SCOPE_CLUSTER) as legend:
        for name, fill in DTYPE_FILL.items():
            legend.node(f"legend_{name}", label=name, **{**style.OP, "fillcolor": fill})
        legend.node("legend_cast", label="cast\n(AMP)", **CAST)
        legend.node("legend_lists", label="[W] white  [B] black  [G] gray", shape="plaintext", style="")


# ---- charts (matplotlib, imported when drawn) -----------------------------------------------------------------------


def _pyplot():
    import matplotlib

    if not _interactive():
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _interactive() -> bool:
    from viz.curves import in_notebook

    return in_notebook()


def amp_stats(stats=None, title: str = "operator calls by dtype"):
    """collect_operator_stats' counts as a horizontal stacked bar chart; returns the matplotlib Figure.

    Args:
        stats: {Paddle op name: [fp16, bf16, fp32, other]} (default: paddle.amp.debugging.operator_stats(), the last
            collection).
    """
    stats = paddle.amp.debugging.operator_stats() if stats is None else stats
    if not isinstance(stats, dict) or not all(len(v) == 4 for v in stats.values()):
        raise TypeError("amp_stats: stats must be {op name: [fp16, bf16, fp32, other]}, as operator_stats() gives")
    plt = _pyplot()
    names = sorted(stats)
    fig, ax = plt.subplots(figsize=(7, 0.3 * len(names) + 1.2))
    left = [0] * len(names)
    colours = (DTYPE_FILL["float16"], DTYPE_FILL["bfloat16"], DTYPE_FILL["float32"], "#dddddd")
    for k, (label, colour) in enumerate(zip(("float16", "bfloat16", "float32", "other"), colours)):
        counts = [stats[n][k] for n in names]
        ax.barh(names, counts, left=left, color=colour, edgecolor="#666666", label=label)
        left = [a + b for a, b in zip(left, counts)]
    ax.set_xlabel("calls")
    ax.set_title(title)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    return fig


def plot_loss_scale(history, title: str = "loss scale"):
    """The loss scale of each step (log scale), steps skipped for Inf/NaN marked with red crosses.

    Args:
        history: a GradScaler (its `.history`) or a list of its ScaleRecords.
    """
    records = history.history if hasattr(history, "history") else history
    if not isinstance(records, list) or not all(hasattr(r, "found_inf") for r in records):
        raise TypeError("plot_loss_scale: expected a GradScaler or its history (a list of ScaleRecords)")
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 3))
    steps = [r.step for r in records]
    ax.step(steps, [r.scale for r in records], where="post", color="#3d85c6", label="scale")
    bad = [r for r in records if r.found_inf]
    ax.scatter([r.step for r in bad], [r.scale for r in bad], marker="x", color="#cc0000", zorder=3,
               label=f"skipped (Inf/NaN): {len(bad)}")  # fmt: skip
    ax.set_yscale("log", base=2)
    ax.set_xlabel("step")
    ax.set_ylabel("loss scale")
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def plot_grad_range(model, scale: float | None = None, title: str = "gradient magnitudes vs float16"):
    """Histogram of |gradient| over the model's parameters (log10), against float16's smallest normal and largest
    value: what falls left of the first line underflows in float16. With `scale`, the scaled gradients too.

    Args:
        model: a Layer whose parameters hold gradients (after backward), or a list of gradient Tensors.
        scale: a loss scale to show the scaled gradients beside the unscaled ones.
    """
    grads = model if isinstance(model, list) else [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        raise ValueError("plot_grad_range: no gradients (run backward first)")
    values = [abs(float(v)) for g in grads for v in g.astype("float32").numpy().ravel() if v != 0]
    if not values:
        raise ValueError("plot_grad_range: every gradient is zero")
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 3))
    logs = [math.log10(v) for v in values]
    ax.hist(logs, bins=50, color="#6fa8dc", alpha=0.8, label="|grad|")
    if scale is not None:
        ax.hist([x + math.log10(scale) for x in logs], bins=50, color="#e69138", alpha=0.6, label=f"|grad| x {scale:g}")
    for x, label in ((FP16_MIN_NORMAL, "float16 smallest normal"), (FP16_MAX, "float16 max")):
        ax.axvline(math.log10(x), color="#cc0000", linestyle="--")
        ax.text(math.log10(x), ax.get_ylim()[1] * 0.9, " " + label, color="#cc0000", fontsize=8)
    ax.set_xlabel("log10 |gradient|")
    ax.set_title(title)
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    return fig
