"""Quantization, drawn: where the scales are, what the grid does to the weights, which layer loses the most.

    viz.quant_records(model)              every quanter of a model: where, what (weight / activation / output),
                                          scheme, bits, scale(s) — the table the views below draw
    viz.draw_quant(model)                 that table, and each per-channel scale vector as a bar chart
    viz.draw_quant(program)               a quantized Program with its quantize / dequantize / fake-quant / int8
                                          ops coloured and their scales written under them
    viz.plot_weight_quant(layer)          a histogram of a layer's weights with the quantization grid and the
                                          clipping range on it, and how many weights land on each level
    viz.plot_quant_error(model, data)     per layer, the SQNR (dB) of its quantized output against float
    history = viz.record_scales(model)    the scale, state and accum of every moving-average quanter, per step,
    viz.plot_scale_history(history)       while training; then drawn

Only minipaddle's public API is read: the quant layers' parameters (`_scale`, `_state`, `_accum`, `_scales`), the
BaseQuanter methods (scales, bit_length, quant_axis), Layer hooks, and Program data.
"""

from __future__ import annotations

import copy

import numpy as np

import minipaddle as paddle
from viz import style
from viz.figure_view import FigureView

__all__ = ["quant_records", "draw_quant", "plot_weight_quant", "plot_quant_error", "record_scales",
           "plot_scale_history", "ScaleHistory"]  # fmt: skip

_Q = paddle.nn.quant.quant_layers
_FORMAT = paddle.nn.quant.format


def _values(t) -> np.ndarray | None:
    if t is None:
        return None
    return np.asarray(t.numpy() if hasattr(t, "numpy") else t, dtype=np.float64).reshape(-1)


def _describe(name: str, layer):
    """(role, scheme, bits, scales, axis) for a layer that quantizes or observes, else None."""
    role = "weight" if "weight" in name.split(".")[-1] else "activation"
    if isinstance(layer, _Q.MovingAverageAbsMaxScale):
        return "output", "moving-average abs-max (recorded)", 8, _values(layer._scale), -1
    if isinstance(layer, _Q.FakeQuantMovingAverageAbsMax):
        return role, "moving-average abs-max", layer._quant_bits, _values(layer._scale), -1
    if isinstance(layer, _Q.FakeQuantChannelWiseAbsMax):
        return (
            role,
            f"channel-wise abs-max (axis {layer._quant_axis})",
            layer._quant_bits,
            _values(layer._scale),
            (layer._quant_axis),
        )
    if isinstance(layer, _Q.FakeQuantAbsMax):
        return role, "abs-max", layer._quant_bits, _values(layer._scale), -1
    if isinstance(layer, (_FORMAT.LinearQuanter, _FORMAT.LinearDequanter)):
        kind = "quantize_linear" if isinstance(layer, _FORMAT.LinearQuanter) else "dequantize_linear"
        return role, kind, layer._bit_length, _values(layer._scales), layer._quant_axis
    if isinstance(layer, paddle.quantization.BaseQuanter):
        scheme = type(layer).__name__.removesuffix("Layer")
        return role, scheme, layer.bit_length(), _values(layer.scales()), layer.quant_axis()
    return None


def quant_records(model) -> list:
    """[{name, role, scheme, bits, scales, axis}] for every quanter or observer in `model`, in Layer order.

    `role` is 'weight', 'activation' (a layer's input) or 'output' (a recorded output scale); `scales` a numpy
    array (one value per tensor, or one per channel along `axis`).
    """
    if not isinstance(model, paddle.nn.Layer):
        raise TypeError(f"quant_records: model must be a paddle.nn.Layer, got {type(model).__name__}")
    out = []
    for name, layer in model.named_sublayers():
        found = _describe(name, layer)
        if found is not None:
            role, scheme, bits, scales, axis = found
            out.append({"name": name, "role": role, "scheme": scheme, "bits": bits, "scales": scales, "axis": axis})
    return out


def _scale_text(scales) -> str:
    if scales is None or scales.size == 0:
        return "(none yet)"
    if scales.size == 1:
        return f"{scales[0]:.4g}"
    return f"{scales.size} ch, {scales.min():.3g}..{scales.max():.3g}"


def draw_quant(what, scope=None):
    """Draw a quantized model (a Layer: its quanters and per-channel scales) or a quantized Program.

    Args:
        what: a Layer with quanters (after ImperativeQuantAware / QAT / PTQ, or converted), or a static Program.
        scope: for a Program, where its scale variables live (default: the global scope).

    Returns:
        A FigureView for a Layer (`.save('quant.svg')`), a DOT View for a Program.
    """
    if isinstance(what, paddle.static.Program):
        return _draw_program(what, scope)
    records = quant_records(what)
    if not records:
        raise ValueError("draw_quant: the model has no quanters; quantize it first (e.g. ImperativeQuantAware)")
    channels = [r for r in records if r["scales"] is not None and r["scales"].size > 1]

    def draw(fig):
        grid = fig.add_gridspec(1 + len(channels), 1, height_ratios=[0.28 * len(records) + 0.6] + [1.4] * len(channels))
        ax = fig.add_subplot(grid[0])
        ax.axis("off")
        rows = [[r["name"], r["role"], r["scheme"], str(r["bits"]), _scale_text(r["scales"])] for r in records]
        table = ax.table(cellText=rows, colLabels=["layer", "quantizes", "scheme", "bits", "scale(s)"],
                         loc="center", cellLoc="left", colLoc="left")  # fmt: skip
        table.auto_set_font_size(False)
        table.set_fontsize(8)
        table.auto_set_column_width(list(range(5)))
        for (row, _), cell in table.get_celld().items():
            if row > 0:
                cell.set_facecolor(style.QUANT_COLORS[records[row - 1]["role"]] + "22")
        for k, r in enumerate(channels):
            axc = fig.add_subplot(grid[1 + k])
            axc.bar(np.arange(r["scales"].size), r["scales"], color=style.QUANT_COLORS[r["role"]])
            axc.set_title(f"{r['name']}: per-channel scales (axis {r['axis']})", fontsize=9, loc="left")
            axc.set_xlabel("channel", fontsize=8)
            axc.tick_params(labelsize=7)

    return FigureView(draw, (8, 0.3 * len(records) + 1 + 1.6 * len(channels)), "draw_quant")


_QUANT_OPS = {
    "quantize_linear": "quantize", "dequantize_linear": "dequantize", "fake_quantize_abs_max": "quantize",
    "fake_channel_wise_quantize_abs_max": "quantize", "fake_quantize_moving_average_abs_max": "quantize",
    "fake_dequantize_max_abs": "dequantize", "fake_channel_wise_dequantize_max_abs": "dequantize",
    "fake_quantize_dequantize_abs_max": "fake_quant", "fake_channel_wise_quantize_dequantize_abs_max": "fake_quant",
    "fake_quantize_dequantize_moving_average_abs_max": "fake_quant", "moving_average_abs_max_scale": "observer",
    "quantize_int8": "int8", "matmul_int8": "int8", "conv2d_int8": "int8", "dequantize_int32": "int8",
}  # fmt: skip


def _draw_program(program, scope):
    from viz import dot
    from viz.program import ProgramDrawing
    from viz.render import View

    scope = paddle.static.global_scope() if scope is None else scope
    marks, notes = {}, {}
    for b in program.blocks:
        for i, op in enumerate(b.ops):
            kind = _QUANT_OPS.get(op.type)
            if kind is None:
                continue
            marks[(b.idx, i)] = kind
            lines = [f"{op.attrs['bit_length']} bit"] if "bit_length" in op.attrs else []
            for name in [n for names in op.inputs.values() for n in names if n is not None][1:2]:
                if name in scope.vars and np.asarray(scope.vars[name]).dtype.kind == "f":
                    lines.append(f"scale {_scale_text(np.asarray(scope.vars[name], np.float64).reshape(-1))}")
            thresholds = [f"{k} {_scale_text(np.asarray(v, np.float64).reshape(-1))}"
                          for k, v in op.quant_attrs.items() if k.endswith("_threshold")]  # fmt: skip
            notes[(b.idx, i)] = lines + thresholds
    for b in program.blocks:  # the legacy format's thresholds on ordinary ops
        for i, op in enumerate(b.ops):
            if (b.idx, i) not in notes:
                th = [f"{k} {_scale_text(np.asarray(v, np.float64).reshape(-1))}" for k, v in op.quant_attrs.items()
                      if k.endswith("_threshold")]  # fmt: skip
                if th:
                    notes[(b.idx, i)] = th
    g = dot.Digraph("quant_program", graph={**style.GRAPH, "compound": "true"}, node=style.NODE, edge=style.EDGE)
    drawing = ProgramDrawing(program, show_vars=False, show_attrs=False, op_marks=marks, notes=notes)
    drawing.emit(g)
    cells = "".join(f'<TD BGCOLOR="{style.QUANT[k]["fillcolor"]}">{dot.escape(k)}</TD>' for k in style.QUANT)
    legend = dot.html(f'<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="2" CELLPADDING="4"><TR>{cells}</TR></TABLE>')
    g.node("quant_legend", legend, shape="plaintext", style="solid")
    return View(g.source(), title="quant_program")


# ---- a layer's weights on the grid -------------------------------------------------------------------------------


def _weight_and_scale(layer, channel):
    """(weights of one channel or all, scale, bits, what) for a (quantized) layer with a weight."""
    weight = getattr(layer, "weight", None)
    if weight is None:
        raise ValueError(f"plot_weight_quant: {type(layer).__name__} has no weight")
    w = weight.numpy().astype(np.float64)
    quanter = next((getattr(layer, n) for n in ("_fake_quant_weight", "weight_quanter") if getattr(layer, n, None)
                    is not None), None)  # fmt: skip
    found = _describe("weight", quanter) if quanter is not None else None
    axis = 1 if isinstance(layer, (paddle.nn.Linear, _Q.QuantizedLinear, paddle.nn.quant.qat.QuantedLinear)) else 0
    if found is None or found[3] is None or not np.any(found[3]):  # no scale yet: the one abs-max would give
        scales, bits, scheme = None, 8, "abs-max (not quantized yet)"
    else:
        _, scheme, bits, scales, _ = found
    if scales is not None and scales.size > 1:
        c = int(np.argmax(scales)) if channel is None else int(channel)
        return np.take(w, c, axis=axis).reshape(-1), float(scales[c]), bits, f"{scheme}, channel {c}"
    if channel is not None:
        w = np.take(w, int(channel), axis=axis)
    s = float(scales[0]) if scales is not None else float(np.abs(w).max())
    return w.reshape(-1), s, bits, scheme


def plot_weight_quant(layer, channel=None, bins: int = 120):
    """A histogram of `layer`'s weights with the quantization grid (thin lines at the levels k * s / bnt), the
    clipping range ±s (red), and below it how many weights land on each level.

    Args:
        layer: a Conv2D / Linear, or its quantized form (QuantizedConv2D, QuantedLinear, ...).
        channel: which output channel (per-channel scales: default the one with the largest scale).
        bins: histogram bins.
    """
    w, s, bits, what = _weight_and_scale(layer, channel)
    bnt = 2 ** (bits - 1) - 1
    levels = np.clip(np.round(w / s * bnt), -bnt - 1, bnt)

    def draw(fig):
        top, bottom = fig.subplots(2, 1, height_ratios=[2, 1])
        top.hist(w, bins=bins, color=style.QUANT_COLORS["weight"], alpha=0.8)
        step = s / bnt
        for k in range(-bnt, bnt + 1, max(1, bnt // 32)):  # (at most ~64 lines: every level up to 6 bits)
            top.axvline(k * step, color="#999999", linewidth=0.3, zorder=0)
        for edge in (-s, s):
            top.axvline(edge, color="#cc0000", linestyle="--", linewidth=1.2)
        clipped = int(np.sum(np.abs(w) > s))
        top.set_title(f"{type(layer).__name__} weights: {what}, {bits} bit, scale {s:.4g}, step {step:.3g}; "
                      f"{clipped} clipped", fontsize=9, loc="left")  # fmt: skip
        top.tick_params(labelsize=7)
        used, counts = np.unique(levels, return_counts=True)
        bottom.bar(used, counts, width=0.9, color=style.QUANT_COLORS["activation"])
        bottom.set_xlim(-bnt - 2, bnt + 2)
        bottom.set_xlabel(f"level (of {2 * bnt + 1}): {used.size} used", fontsize=8)
        bottom.set_ylabel("weights", fontsize=8)
        bottom.tick_params(labelsize=7)

    return FigureView(draw, (8, 4.5), "plot_weight_quant")


# ---- where the error comes from ------------------------------------------------------------------------------------

_COMPUTE = (paddle.nn.Conv2D, paddle.nn.Linear, paddle.nn.Conv2DTranspose)
_QUANTIZED = (_Q.QuantizedConv2D, _Q.QuantizedLinear, _Q.QuantizedConv2DTranspose, paddle.nn.quant.qat.QuantedConv2D,
              paddle.nn.quant.qat.QuantedLinear)  # fmt: skip
_QUANTERS = (_Q.FakeQuantAbsMax, _Q.FakeQuantChannelWiseAbsMax, _Q.FakeQuantMovingAverageAbsMax,
             _Q.MovingAverageAbsMaxScale, paddle.quantization.BaseQuanter)  # fmt: skip


class _Pass(paddle.nn.Layer):
    def forward(self, x):
        return x


def _float_twin(model):
    """A copy of a quantized (not converted) model with every quanter replaced by the identity: its float self."""
    twin = copy.deepcopy(model)
    for name, layer in list(twin.named_sublayers()):
        if isinstance(layer, (_FORMAT.LinearQuanter, _FORMAT.LinearDequanter, _FORMAT.LinearQuanterDequanter)):
            raise ValueError("plot_quant_error: a converted model has no float self; pass float_model=")
        if isinstance(layer, _QUANTERS):
            parent = twin
            *path, last = name.split(".")
            for part in path:
                parent = getattr(parent, part)
            setattr(parent, last, _Pass())
    return twin


def _outputs(model, kinds, data) -> list:
    """[(name, output)] of the layers of `kinds`, in Layer order, for one forward pass on data."""
    found, hooks = [], []

    def recorder(name):
        return lambda _, inputs, out: found.append((name, out.numpy().astype(np.float64)))

    for name, layer in model.named_sublayers():
        if isinstance(layer, kinds):
            hooks.append(layer.register_forward_post_hook(recorder(name)))
    try:
        with paddle.no_grad():
            model(data)
    finally:
        for h in hooks:
            h.remove()
    return found


def sqnr_db(reference: np.ndarray, approx: np.ndarray) -> float:
    """10 log10(signal power / noise power): each 6 dB is about one bit of precision (inf when equal)."""
    noise = float(np.sum((reference - approx) ** 2))
    signal = float(np.sum(reference**2))
    return float("inf") if noise == 0 else 10 * np.log10(max(signal, 1e-30) / noise)


def plot_quant_error(model, data, float_model=None):
    """Per quantized layer (Conv2D / Linear), the SQNR in dB of its output in the quantized model against the same
    layer's output in float, on `data`: the error each layer has accumulated, so the step where it drops most is
    the layer that hurts.

    Args:
        model: a quantized model (ImperativeQuantAware, QAT or PTQ before convert; or converted, with float_model).
        data: an input Tensor (a batch).
        float_model: the float model it came from (default: the model with its quanters switched off).
    """
    float_model = _float_twin(model) if float_model is None else float_model
    was = [(m, m.training) for m in (model, float_model)]
    model.eval()
    float_model.eval()
    try:
        quantized = _outputs(model, _QUANTIZED + _COMPUTE, data)
        reference = _outputs(float_model, _COMPUTE + _QUANTIZED, data)
    finally:
        for m, t in was:
            m.train() if t else m.eval()
    if len(quantized) != len(reference) or not quantized:
        raise ValueError(f"plot_quant_error: {len(quantized)} quantized layers but {len(reference)} float ones; "
                         "give the float model the quantized one came from")  # fmt: skip
    names = [n for n, _ in quantized]
    values = [sqnr_db(r, q) for (_, q), (_, r) in zip(quantized, reference)]
    finite = [v for v in values if np.isfinite(v)]

    def draw(fig):
        ax = fig.add_subplot()
        shown = [v if np.isfinite(v) else (max(finite) if finite else 100) for v in values]
        bars = ax.bar(range(len(values)), shown, color=style.QUANT_COLORS["activation"])
        for bar, v in zip(bars, values):
            ax.text(bar.get_x() + bar.get_width() / 2, bar.get_height(), "inf" if not np.isfinite(v) else f"{v:.1f}",
                    ha="center", va="bottom", fontsize=7)  # fmt: skip
        ax.set_xticks(range(len(values)), names, rotation=30, ha="right", fontsize=7)
        ax.set_ylabel("SQNR (dB)", fontsize=8)
        ax.set_title("quantized vs float output per layer (higher is better; ~6 dB per bit)", fontsize=9, loc="left")

    view = FigureView(draw, (max(5, 0.7 * len(values) + 2), 3.5), "plot_quant_error")
    view.sqnr = dict(zip(names, values))
    return view


# ---- the moving averages over training -----------------------------------------------------------------------------


class ScaleHistory:
    """Records `_scale`, `_state`, `_accum` of every moving-average quanter after each training forward."""

    def __init__(self, model) -> None:
        self.history: dict = {}
        self._hooks = []
        for name, layer in model.named_sublayers():
            if all(hasattr(layer, a) for a in ("_scale", "_state", "_accum")):
                self.history[name] = {"scale": [], "state": [], "accum": []}
                self._hooks.append(layer.register_forward_post_hook(self._recorder(name)))

    def _recorder(self, name):
        def record(layer, inputs, outputs):
            if layer.training:
                for key in ("scale", "state", "accum"):
                    self.history[name][key].append(float(np.asarray(getattr(layer, "_" + key).numpy()).reshape(-1)[0]))

        return record

    def remove(self) -> None:
        """Stop recording."""
        for h in self._hooks:
            h.remove()
        self._hooks = []


def record_scales(model) -> ScaleHistory:
    """Start recording every moving-average quanter's scale, state and accum (per training forward)."""
    if not isinstance(model, paddle.nn.Layer):
        raise TypeError(f"record_scales: model must be a paddle.nn.Layer, got {type(model).__name__}")
    return ScaleHistory(model)


def plot_scale_history(history, names=None):
    """The scale, state and accum of moving-average quanters over QAT steps (state -> 1 / (1 - rate), the
    scale -> the running abs-max).

    Args:
        history: a ScaleHistory (record_scales) or {name: {"scale": [...], "state": [...], "accum": [...]}}.
        names: which quanters (default: all that recorded something, at most 6).
    """
    data = history.history if isinstance(history, ScaleHistory) else history
    if not isinstance(data, dict):
        raise TypeError(f"plot_scale_history: expected a ScaleHistory or a dict, got {type(history).__name__}")
    names = [n for n in data if data[n]["scale"]][:6] if names is None else list(names)
    if not names:
        raise ValueError("plot_scale_history: nothing recorded yet; train with the model in training mode")

    def draw(fig):
        axes = fig.subplots(1, 3)
        for name in names:
            for ax, key in zip(axes, ("scale", "state", "accum")):
                ax.plot(data[name][key], label=name, linewidth=1.2)
        for ax, key in zip(axes, ("scale", "state", "accum")):
            ax.set_title(key, fontsize=9)
            ax.set_xlabel("step", fontsize=8)
            ax.tick_params(labelsize=7)
        axes[0].legend(fontsize=6)

    return FigureView(draw, (10, 3.2), "plot_scale_history")


def quant_tour_section(net, images) -> tuple:
    """(title, HTML) for `make tour`'s page: `net` (a copy) quantized with ImperativeQuantAware and calibrated on
    `images` [N, 1, H, W], its per-layer SQNR against float and its first Linear's weights on the 8-bit grid."""
    from viz.render import svg_element

    quantized = copy.deepcopy(net)
    quantized.train()
    paddle.quantization.ImperativeQuantAware(weight_quantize_type="channel_wise_abs_max").quantize(quantized)
    x = paddle.to_tensor(np.asarray(images, dtype="float32"))
    with paddle.no_grad():
        for _ in range(5):  # let the moving averages see the data
            quantized(x)
    quantized.eval()
    error = plot_quant_error(quantized, x, float_model=net)
    first_linear = next(layer for layer in quantized.sublayers() if isinstance(layer, _Q.QuantizedLinear))
    body = svg_element(error.svg()) + svg_element(plot_weight_quant(first_linear).svg())
    return (
        "Quantized to 8 bits: the error per layer and a weight grid (viz.plot_quant_error, viz.plot_weight_quant)",
        body,
    )
