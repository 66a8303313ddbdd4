"""Op-table section: convolution, pooling, interpolation, padding, unfold/fold (issue 4).

Each numpy reference below is written the slow, obvious way (loops over output pixels, np.pad), independently of
minipaddle's vectorized kernels. Shapes are small so that float64 gradcheck stays fast. The *_grad entries
differentiate a first gradient, which runs each gradient op's own gradient (conv2d_grad_input's, max_pool_grad's,
...): double backward.
"""

from __future__ import annotations

import itertools

import numpy as np

import minipaddle as paddle
import minipaddle.nn.functional as F
from tests.op_table.common import OpInfo, Sample, distinct, r

# ---- shared reference helpers --------------------------------------------------------------------------------------


def _pairs(padding, nd, sizes=None, kernel=None, strides=None):
    """Padding as [(before, after)] per spatial axis, from an int, nd ints, 2*nd ints or 'same'."""
    if isinstance(padding, str):
        out = []
        for d, k, s in zip(sizes, kernel, strides):
            total = max((-(-d // s) - 1) * s + k - d, 0)
            out.append((total // 2, total - total // 2))
        return out
    if isinstance(padding, int):
        return [(padding, padding)] * nd
    if len(padding) == nd:
        return [(p, p) for p in padding]
    return [(padding[2 * i], padding[2 * i + 1]) for i in range(nd)]


def _tup(v, nd):
    return (v,) * nd if isinstance(v, (int, float)) else tuple(v)


def _channels_first(x, data_format):
    return np.moveaxis(x, -1, 1) if data_format and data_format[-1] == "C" else x


def _channels_last(y, data_format):
    return np.moveaxis(y, 1, -1) if data_format and data_format[-1] == "C" else y


# ---- convolution ---------------------------------------------------------------------------------------------------


def conv_ref(x, w, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format=None):
    x = _channels_first(x, data_format)
    nd = x.ndim - 2
    s, d, k = _tup(stride, nd), _tup(dilation, nd), w.shape[2:]
    if padding == "same":
        d = (1,) * nd
    pads = _pairs(padding, nd, x.shape[2:], k, s)
    xp = np.pad(x, [(0, 0), (0, 0), *pads])
    out_sp = [(xp.shape[2 + i] - d[i] * (k[i] - 1) - 1) // s[i] + 1 for i in range(nd)]
    n, o = x.shape[0], w.shape[0]
    cg, og = x.shape[1] // groups, o // groups
    y = np.zeros((n, o, *out_sp))
    for pos in itertools.product(*(range(q) for q in out_sp)):
        window = tuple(slice(p * s[i], p * s[i] + d[i] * (k[i] - 1) + 1, d[i]) for i, p in enumerate(pos))
        for g in range(groups):
            patch = xp[(slice(None), slice(g * cg, (g + 1) * cg), *window)]
            y[(slice(None), slice(g * og, (g + 1) * og), *pos)] = np.tensordot(
                patch, w[g * og : (g + 1) * og], axes=(list(range(1, nd + 2)), list(range(1, nd + 2)))
            )
    if bias is not None:
        y = y + bias.reshape(1, -1, *([1] * nd))
    return _channels_last(y.astype(x.dtype), data_format)


def conv_transpose_ref(x, w, bias=None, stride=1, padding=0, output_padding=0, dilation=1, groups=1,
                       output_size=None, data_format=None):  # fmt: skip
    x = _channels_first(x, data_format)
    nd = x.ndim - 2
    s, d, k = _tup(stride, nd), _tup(dilation, nd), w.shape[2:]
    pads = _pairs(padding, nd)
    full = [(x.shape[2 + i] - 1) * s[i] + d[i] * (k[i] - 1) + 1 for i in range(nd)]
    cg, og = x.shape[1] // groups, w.shape[1]
    y = np.zeros((x.shape[0], og * groups, *[f + max(b, a) + 4 for f, (b, a) in zip(full, pads)]))
    for pos in itertools.product(*(range(q) for q in x.shape[2:])):
        for kpos in itertools.product(*(range(q) for q in k)):
            at = tuple(p * s[i] + kp * d[i] for i, (p, kp) in enumerate(zip(pos, kpos)))
            for g in range(groups):
                xin = x[(slice(None), slice(g * cg, (g + 1) * cg), *pos)]  # [N, cg]
                wk = w[(slice(g * cg, (g + 1) * cg), slice(None), *kpos)]  # [cg, og]
                y[(slice(None), slice(g * og, (g + 1) * og), *at)] += xin @ wk
    if output_size is not None:
        sizes = list(output_size)
    else:
        sizes = [f - b - a + e for f, (b, a), e in zip(full, pads, _tup(output_padding, nd))]
    y = y[(slice(None), slice(None), *(slice(b, b + n) for (b, _), n in zip(pads, sizes)))]
    if bias is not None:
        y = y + bias.reshape(1, -1, *([1] * nd))
    return _channels_last(y.astype(x.dtype), data_format)


def conv_samples(rng):
    return [
        Sample((r(rng, 2, 2, 5, 4), r(rng, 3, 2, 3, 2), r(rng, 3)), {}, "bias"),
        Sample((r(rng, 1, 2, 6, 5), r(rng, 2, 2, 3, 3)), {"stride": 2, "padding": [1, 0, 2, 1]}, "stride, uneven pad"),
        Sample(
            (r(rng, 1, 4, 5, 5), r(rng, 4, 2, 2, 2)), {"groups": 2, "dilation": 2, "padding": 1}, "groups, dilation"
        ),
        Sample((r(rng, 1, 2, 5, 4), r(rng, 2, 2, 3, 3)), {"padding": "same", "stride": 2}, "same"),
        Sample((r(rng, 1, 4, 3, 2), r(rng, 2, 2, 2, 2)), {"padding": 1, "data_format": "NHWC"}, "NHWC"),
    ]


def conv1d_samples(rng):
    return [
        Sample((r(rng, 2, 2, 7), r(rng, 3, 2, 3), r(rng, 3)), {"stride": 2, "padding": 1}, "stride, pad"),
        Sample((r(rng, 1, 4, 6), r(rng, 2, 2, 2)), {"groups": 2, "dilation": 2}, "groups, dilation"),
        Sample((r(rng, 1, 6, 2), r(rng, 3, 2, 3)), {"padding": "same", "data_format": "NLC"}, "NLC same"),
    ]


def conv3d_samples(rng):
    return [
        Sample((r(rng, 1, 2, 3, 4, 3), r(rng, 2, 2, 2, 2, 2), r(rng, 2)), {"padding": [1, 0, 1]}, "pad"),
        Sample((r(rng, 1, 2, 4, 3, 3), r(rng, 2, 1, 2, 2, 2)), {"stride": 2, "groups": 2}, "stride, groups"),
    ]


def conv_transpose_samples(rng):
    return [
        Sample((r(rng, 2, 2, 3, 3), r(rng, 2, 3, 2, 3), r(rng, 3)), {}, "bias"),
        Sample((r(rng, 1, 2, 3, 2), r(rng, 2, 2, 3, 3)), {"stride": 2, "padding": 1, "output_padding": 1}, "stride"),
        Sample((r(rng, 1, 4, 2, 3), r(rng, 4, 1, 2, 2)), {"groups": 2, "dilation": 2}, "groups, dilation"),
        Sample(
            (r(rng, 1, 2, 3, 3), r(rng, 2, 2, 3, 3)), {"stride": 2, "padding": 1, "output_size": [6, 5]}, "output_size"
        ),
    ]


def conv1d_transpose_samples(rng):
    return [Sample((r(rng, 2, 2, 4), r(rng, 2, 3, 3), r(rng, 3)), {"stride": 2, "padding": 1}, "stride, pad")]


def conv3d_transpose_samples(rng):
    return [Sample((r(rng, 1, 2, 2, 2, 3), r(rng, 2, 2, 2, 2, 2)), {"stride": [1, 2, 1]}, "stride")]


def _leaf(x):
    """x itself when it wants a gradient, else a fresh leaf that does (the forward check passes constants)."""
    return x if not x.stop_gradient else paddle.to_tensor(x.numpy(), stop_gradient=False)


def _probe(shape, dtype):
    """A fixed output gradient v, so that a first gradient is a function of the inputs only."""
    return np.linspace(-1, 1, int(np.prod(shape))).reshape(shape).astype(dtype)


def conv2d_input_grad(x, w, **kw):
    """d(sum(conv2d(x, w) * v))/dx = conv2d_grad_input(v, w); differentiating it runs that op's own gradient."""
    x = _leaf(x)
    y = F.conv2d(x, w, **kw)
    v = paddle.to_tensor(_probe(y.shape, y.numpy().dtype))
    return paddle.grad([(y * v).sum()], [x], create_graph=True)[0]


def conv2d_input_grad_ref(x, w, **kw):
    v = _probe(conv_ref(x, w, **kw).shape, x.dtype)
    return conv_transpose_ref(v, w, output_size=x.shape[2:], **kw)


# ---- pooling -------------------------------------------------------------------------------------------------------


def _pool_out(d, k, s, b, a, ceil_mode):
    span = d + b + a - k
    return (span + s - 1) // s + 1 if ceil_mode else span // s + 1


def pool_ref(x, kernel_size, stride=None, padding=0, ceil_mode=False, kind="max", exclusive=True,
             divisor_override=None, data_format=None):  # fmt: skip
    x = _channels_first(x, data_format)
    nd = x.ndim - 2
    k = _tup(kernel_size, nd)
    s = k if stride is None else _tup(stride, nd)
    pads = _pairs(padding, nd, x.shape[2:], k, s)
    out_sp = [_pool_out(x.shape[2 + i], k[i], s[i], *pads[i], ceil_mode) for i in range(nd)]
    y = np.zeros((*x.shape[:2], *out_sp))
    for pos in itertools.product(*(range(q) for q in out_sp)):
        starts = [p * s[i] - pads[i][0] for i, p in enumerate(pos)]
        inside = tuple(slice(max(st, 0), min(st + k[i], x.shape[2 + i])) for i, st in enumerate(starts))
        window = x[(slice(None), slice(None), *inside)].reshape(*x.shape[:2], -1)
        if kind == "max":
            y[(..., *pos)] = window.max(axis=-1)
            continue
        if divisor_override:
            count = divisor_override
        elif exclusive:
            count = window.shape[-1]
        else:
            count = np.prod([min(st + k[i], x.shape[2 + i] + pads[i][0]) - st for i, st in enumerate(starts)])
        y[(..., *pos)] = window.sum(axis=-1) / count
    return _channels_last(y.astype(x.dtype), data_format)


def max_pool_samples(nd):
    def samples(rng):
        shape = {1: (2, 2, 7), 2: (1, 2, 5, 6), 3: (1, 1, 4, 3, 5)}[nd]
        x = distinct(rng, *shape)
        out = [
            Sample((x,), {"kernel_size": 2}, "k2"),
            Sample((x,), {"kernel_size": 3, "stride": 2, "padding": 1}, "overlap, pad"),
            Sample((x,), {"kernel_size": 2, "stride": 1, "ceil_mode": True}, "ceil"),
        ]
        if nd == 2:
            out.append(Sample((x,), {"kernel_size": 3, "stride": 2, "padding": "same"}, "same"))
            out.append(
                Sample(
                    (np.ascontiguousarray(np.moveaxis(x, 1, -1)),), {"kernel_size": 2, "data_format": "NHWC"}, "NHWC"
                )
            )
        return out

    return samples


def avg_pool_samples(nd):
    def samples(rng):
        shape = {1: (2, 2, 7), 2: (1, 2, 5, 6), 3: (1, 1, 4, 3, 5)}[nd]
        x = r(rng, *shape)
        out = [
            Sample((x,), {"kernel_size": 2}, "k2"),
            Sample((x,), {"kernel_size": 3, "stride": 2, "padding": 1}, "pad exclusive"),
            Sample((x,), {"kernel_size": 3, "stride": 2, "padding": 1, "exclusive": False}, "pad inclusive"),
            Sample((x,), {"kernel_size": 2, "ceil_mode": True, "exclusive": False}, "ceil inclusive"),
        ]
        if nd == 2:
            out.append(Sample((x,), {"kernel_size": 2, "padding": [0, 1, 1, 0], "exclusive": False}, "uneven pad"))
            out.append(Sample((x,), {"kernel_size": 2, "divisor_override": 3}, "divisor_override"))
            nhwc = np.ascontiguousarray(np.moveaxis(x, 1, -1))
            out.append(Sample((nhwc,), {"kernel_size": 3, "padding": "same", "data_format": "NHWC"},
                              "NHWC same"))  # fmt: skip
        return out

    return samples


def max_pool_mask_ref(x, kernel_size, stride=None, padding=0):
    nd = x.ndim - 2
    k = _tup(kernel_size, nd)
    s = k if stride is None else _tup(stride, nd)
    pads = _pairs(padding, nd)
    out_sp = [_pool_out(x.shape[2 + i], k[i], s[i], *pads[i], False) for i in range(nd)]
    mask = np.zeros((*x.shape[:2], *out_sp), dtype=np.int32)
    for n, c in itertools.product(range(x.shape[0]), range(x.shape[1])):
        for pos in itertools.product(*(range(q) for q in out_sp)):
            best, where = -np.inf, -1
            for kpos in itertools.product(*(range(q) for q in k)):
                at = [p * s[i] + kp - pads[i][0] for i, (p, kp) in enumerate(zip(pos, kpos))]
                if all(0 <= a < x.shape[2 + i] for i, a in enumerate(at)) and x[(n, c, *at)] > best:
                    best, where = x[(n, c, *at)], int(np.ravel_multi_index(at, x.shape[2:]))
            mask[(n, c, *pos)] = where
    return mask


def max_pool_input_grad(x, **kw):
    """d(sum(max_pool2d(x) * v))/dx * x: runs max_pool_grad; differentiating it runs max_pool_grad_grad."""
    x = _leaf(x)
    y = F.max_pool2d(x, **kw)
    (g,) = paddle.grad([(y * paddle.to_tensor(_probe(y.shape, y.numpy().dtype))).sum()], [x], create_graph=True)
    return g * x  # depends on x linearly, so the gradient of the gradient reaches max_pool_grad_grad


def max_pool_input_grad_ref(x, **kw):
    v = _probe(pool_ref(x, **kw).shape, np.float64)
    mask = max_pool_mask_ref(x, **kw)
    g = np.zeros(x.shape[:2] + (int(np.prod(x.shape[2:])),))
    for idx in np.ndindex(*mask.shape):
        g[idx[0], idx[1], mask[idx]] += v[idx]
    return (g.reshape(x.shape) * x).astype(x.dtype)


def adaptive_bins(d, n):
    return [((i * d) // n, -(-((i + 1) * d) // n)) for i in range(n)]


def adaptive_ref(x, output_size, kind="avg", data_format=None):
    x = _channels_first(x, data_format)
    nd = x.ndim - 2
    sizes = [x.shape[2 + i] if o is None else o for i, o in enumerate(_tup(output_size, nd))]
    bins = [adaptive_bins(x.shape[2 + i], sizes[i]) for i in range(nd)]
    y = np.zeros((*x.shape[:2], *sizes))
    for pos in itertools.product(*(range(q) for q in sizes)):
        window = x[(slice(None), slice(None), *(slice(*bins[i][p]) for i, p in enumerate(pos)))]
        window = window.reshape(*x.shape[:2], -1)
        y[(..., *pos)] = window.mean(-1) if kind == "avg" else window.max(-1)
    return _channels_last(y.astype(x.dtype), data_format)


def adaptive_samples(nd, make=r):
    def samples(rng):
        shape = {1: (2, 2, 7), 2: (1, 2, 5, 7), 3: (1, 1, 3, 5, 4)}[nd]
        out = [Sample((make(rng, *shape),), {"output_size": 3}, "3"),
               Sample((make(rng, *shape),), {"output_size": 1}, "global")]  # fmt: skip
        if nd == 2:
            out.append(Sample((make(rng, *shape),), {"output_size": [None, 4]}, "None"))
            out.append(Sample((make(rng, *shape),), {"output_size": [7, 9]}, "bigger than the input"))
        return out

    return samples


# ---- interpolate -----------------------------------------------------------------------------------------------------


def _source(k, n_in, n_out, mode, align_corners, align_mode, scale):
    ratio = 0.0 if n_out <= 1 else (n_in - 1) / (n_out - 1) if align_corners else (1 / scale if scale else n_in / n_out)
    if mode == "nearest":
        return [(min(int(ratio * k), n_in - 1), 1.0)]
    if mode == "linear":
        src = max(ratio * (k + 0.5) - 0.5, 0) if (align_mode == 0 and not align_corners) else ratio * k
        lo = int(src)
        return [(lo, 1 - (src - lo)), (min(lo + 1, n_in - 1), src - lo)]
    src = ratio * k if align_corners else ratio * (k + 0.5) - 0.5
    lo = int(np.floor(src))
    t, a = src - lo, -0.75
    near = lambda s: ((a + 2) * s - (a + 3)) * s * s + 1
    far = lambda s: ((a * s - 5 * a) * s + 8 * a) * s - 4 * a
    weights = [far(t + 1), near(t), near(1 - t), far(2 - t)]
    return [(min(max(lo - 1 + i, 0), n_in - 1), w) for i, w in enumerate(weights)]


def interp_ref(x, size=None, scale_factor=None, mode="nearest", align_corners=False, align_mode=0,
               data_format=None):  # fmt: skip
    x = _channels_first(x, data_format)
    nd = x.ndim - 2
    kind = {"bilinear": "linear", "trilinear": "linear", "bicubic": "bicubic"}.get(mode, mode)
    scales = None if scale_factor is None else _tup(scale_factor, nd)
    if size is None:
        size = [int(x.shape[2 + i] * scales[i]) for i in range(nd)]
    y = x.astype(np.float64)
    for i in range(nd):  # one axis at a time
        taps = [_source(k, y.shape[2 + i], size[i], kind, align_corners, align_mode, scales and scales[i])
                for k in range(size[i])]  # fmt: skip
        moved = np.moveaxis(y, 2 + i, -1)
        out = np.stack([sum(w * moved[..., j] for j, w in t) for t in taps], axis=-1)
        y = np.moveaxis(out, -1, 2 + i)
    return _channels_last(y.astype(x.dtype), data_format)


def interp_samples(rng):
    return [
        Sample((r(rng, 1, 2, 3, 4),), {"scale_factor": 2}, "nearest x2"),
        Sample((r(rng, 1, 2, 5, 4),), {"size": [3, 6]}, "nearest size"),
        Sample((r(rng, 1, 2, 3, 4),), {"size": [5, 3], "mode": "bilinear"}, "bilinear"),
        Sample((r(rng, 1, 2, 3, 4),), {"size": [5, 6], "mode": "bilinear", "align_corners": True}, "align_corners"),
        Sample((r(rng, 1, 2, 3, 4),), {"scale_factor": 1.5, "mode": "bilinear", "align_mode": 1}, "align_mode 1"),
        Sample((r(rng, 1, 3, 4, 2),), {"scale_factor": 2, "mode": "bilinear", "data_format": "NHWC"}, "NHWC"),
        Sample((r(rng, 2, 2, 4),), {"size": [7], "mode": "linear", "data_format": "NCW"}, "linear"),
        Sample(
            (r(rng, 1, 1, 2, 3, 2),), {"scale_factor": 2, "mode": "trilinear", "data_format": "NCDHW"}, "trilinear"
        ),  # fmt: skip
        Sample((r(rng, 1, 2, 3, 4),), {"size": [5, 6], "mode": "bicubic"}, "bicubic"),
    ]


# ---- pad, unfold, fold ---------------------------------------------------------------------------------------------


def pad_ref(x, pad, mode="constant", value=0.0, data_format=None):
    np_mode = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap"}[mode]
    if mode == "constant" and len(pad) == 2 * x.ndim:
        widths = [(pad[2 * i], pad[2 * i + 1]) for i in range(x.ndim)]
    else:
        nd = x.ndim - 2
        spatial = [(pad[2 * i], pad[2 * i + 1]) for i in range(nd)][::-1]
        last = data_format is not None and data_format[-1] == "C"
        widths = [(0, 0), *spatial, (0, 0)] if last else [(0, 0), (0, 0), *spatial]
    kwargs = {"constant_values": value} if mode == "constant" else {}
    return np.pad(x, widths, mode=np_mode, **kwargs)


def pad_samples(rng):
    return [
        Sample((r(rng, 1, 2, 3, 4),), {"pad": [1, 0, 2, 1], "value": 0.5}, "constant"),
        Sample((r(rng, 2, 3, 2),), {"pad": [1, 0, 0, 2, 1, 1]}, "constant, every axis"),
        Sample((r(rng, 1, 1, 4, 5),), {"pad": [2, 1, 3, 1], "mode": "reflect"}, "reflect"),
        Sample((r(rng, 1, 2, 3, 4),), {"pad": [2, 3, 0, 2], "mode": "replicate"}, "replicate"),
        Sample((r(rng, 1, 1, 3, 4),), {"pad": [1, 5, 2, 0], "mode": "circular"}, "circular, wider than the axis"),
        Sample((r(rng, 2, 1, 5),), {"pad": [2, 3], "mode": "reflect", "data_format": "NCL"}, "reflect 1-D"),
        Sample((r(rng, 1, 3, 2, 2),), {"pad": [1, 2, 2, 1], "mode": "replicate", "data_format": "NHWC"}, "NHWC"),
        Sample(
            (r(rng, 1, 1, 2, 2, 3),),
            {"pad": [1, 1, 0, 2, 1, 0], "mode": "circular", "data_format": "NCDHW"},
            "circular 3-D",
        ),  # fmt: skip
    ]


def _unfold_pads(paddings):
    if isinstance(paddings, int):
        return [(paddings, paddings)] * 2
    if len(paddings) == 2:
        return [(paddings[0], paddings[0]), (paddings[1], paddings[1])]
    return [(paddings[0], paddings[2]), (paddings[1], paddings[3])]


def unfold_ref(x, kernel_sizes, strides=1, paddings=0, dilations=1):
    k, s, d = _tup(kernel_sizes, 2), _tup(strides, 2), _tup(dilations, 2)
    xp = np.pad(x, [(0, 0), (0, 0), *_unfold_pads(paddings)])
    oh, ow = [(xp.shape[2 + i] - d[i] * (k[i] - 1) - 1) // s[i] + 1 for i in range(2)]
    cols = []
    for i, j in itertools.product(range(oh), range(ow)):
        patch = xp[
            :, :, i * s[0] : i * s[0] + d[0] * (k[0] - 1) + 1 : d[0], j * s[1] : j * s[1] + d[1] * (k[1] - 1) + 1 : d[1]
        ]
        cols.append(patch.reshape(x.shape[0], -1))
    return np.stack(cols, axis=-1)


def fold_ref(cols, output_sizes, kernel_sizes, strides=1, paddings=0, dilations=1):
    k, s, d = _tup(kernel_sizes, 2), _tup(strides, 2), _tup(dilations, 2)
    pads = _unfold_pads(paddings)
    c = cols.shape[1] // (k[0] * k[1])
    xp = np.zeros((cols.shape[0], c, output_sizes[0] + sum(pads[0]), output_sizes[1] + sum(pads[1])))
    oh, ow = [(xp.shape[2 + i] - d[i] * (k[i] - 1) - 1) // s[i] + 1 for i in range(2)]
    for l, (i, j) in enumerate(itertools.product(range(oh), range(ow))):
        block = cols[:, :, l].reshape(cols.shape[0], c, k[0], k[1])
        xp[
            :, :, i * s[0] : i * s[0] + d[0] * (k[0] - 1) + 1 : d[0], j * s[1] : j * s[1] + d[1] * (k[1] - 1) + 1 : d[1]
        ] += block
    h, w = output_sizes
    return xp[:, :, pads[0][0] : pads[0][0] + h, pads[1][0] : pads[1][0] + w].astype(cols.dtype)


def unfold_samples(rng):
    return [
        Sample((r(rng, 2, 2, 4, 4),), {"kernel_sizes": 2}, "k2"),
        Sample(
            (r(rng, 1, 2, 5, 4),), {"kernel_sizes": [2, 3], "strides": [2, 1], "paddings": [1, 0, 0, 2]}, "stride, pad"
        ),  # fmt: skip
        Sample((r(rng, 1, 1, 5, 5),), {"kernel_sizes": 2, "dilations": 2, "paddings": 1}, "dilation"),
    ]


def fold_samples(rng):
    return [
        Sample((r(rng, 2, 8, 9),), {"output_sizes": [4, 4], "kernel_sizes": 2}, "k2"),
        Sample(
            (r(rng, 1, 4, 12),),
            {"output_sizes": [5, 6], "kernel_sizes": 2, "strides": 2, "paddings": [1, 1]},
            "stride, pad",
        ),  # fmt: skip
    ]


def pixel_shuffle_ref(x, upscale_factor, data_format="NCHW"):
    x = _channels_first(x, data_format)
    n, c, h, w = x.shape
    r = upscale_factor
    out = np.zeros((n, c // (r * r), h * r, w * r), dtype=x.dtype)
    for ch, i, j in itertools.product(range(c // (r * r)), range(r), range(r)):
        out[:, ch, i::r, j::r] = x[:, ch * r * r + i * r + j]
    return _channels_last(out, data_format)


ENTRIES: list[OpInfo] = [
    OpInfo("conv2d", F.conv2d, conv_ref, conv_samples, double_grad=True),
    OpInfo("conv1d", F.conv1d, conv_ref, conv1d_samples),
    OpInfo("conv3d", F.conv3d, conv_ref, conv3d_samples),
    OpInfo("conv2d_transpose", F.conv2d_transpose, conv_transpose_ref, conv_transpose_samples, double_grad=True),
    OpInfo("conv1d_transpose", F.conv1d_transpose, conv_transpose_ref, conv1d_transpose_samples),
    OpInfo("conv3d_transpose", F.conv3d_transpose, conv_transpose_ref, conv3d_transpose_samples),
    OpInfo(
        "conv2d_input_grad",
        conv2d_input_grad,
        conv2d_input_grad_ref,
        lambda rng: [Sample((r(rng, 1, 2, 4, 4), r(rng, 2, 2, 2, 2)), {"stride": 2, "padding": 1})],
        double_grad=True,
        static=False,
    ),  # fmt: skip
    OpInfo("max_pool1d", F.max_pool1d, pool_ref, max_pool_samples(1)),
    OpInfo("max_pool2d", F.max_pool2d, pool_ref, max_pool_samples(2)),
    OpInfo("max_pool3d", F.max_pool3d, pool_ref, max_pool_samples(3)),
    OpInfo(
        "max_pool2d_mask",
        lambda x, **kw: F.max_pool2d(x, return_mask=True, **kw)[1],
        max_pool_mask_ref,
        lambda rng: [Sample((distinct(rng, 2, 2, 5, 5),), {"kernel_size": 3, "stride": 2, "padding": 1})],
        grad=False,
    ),  # fmt: skip
    OpInfo(
        "max_pool2d_input_grad",
        max_pool_input_grad,
        max_pool_input_grad_ref,
        lambda rng: [Sample((distinct(rng, 1, 2, 4, 5),), {"kernel_size": 2, "stride": 1})],
        static=False,
    ),  # fmt: skip
    OpInfo(
        "avg_pool1d", F.avg_pool1d, lambda x, **kw: pool_ref(x, kind="avg", **kw), avg_pool_samples(1), double_grad=True
    ),  # fmt: skip
    OpInfo(
        "avg_pool2d", F.avg_pool2d, lambda x, **kw: pool_ref(x, kind="avg", **kw), avg_pool_samples(2), double_grad=True
    ),  # fmt: skip
    OpInfo("avg_pool3d", F.avg_pool3d, lambda x, **kw: pool_ref(x, kind="avg", **kw), avg_pool_samples(3)),
    OpInfo("adaptive_avg_pool1d", F.adaptive_avg_pool1d, adaptive_ref, adaptive_samples(1)),
    OpInfo("adaptive_avg_pool2d", F.adaptive_avg_pool2d, adaptive_ref, adaptive_samples(2), double_grad=True),
    OpInfo("adaptive_avg_pool3d", F.adaptive_avg_pool3d, adaptive_ref, adaptive_samples(3)),
    OpInfo(
        "adaptive_max_pool1d",
        F.adaptive_max_pool1d,
        lambda x, **kw: adaptive_ref(x, kind="max", **kw),
        adaptive_samples(1, distinct),
    ),  # fmt: skip
    OpInfo(
        "adaptive_max_pool2d",
        F.adaptive_max_pool2d,
        lambda x, **kw: adaptive_ref(x, kind="max", **kw),
        adaptive_samples(2, distinct),
    ),  # fmt: skip
    OpInfo(
        "adaptive_max_pool3d",
        F.adaptive_max_pool3d,
        lambda x, **kw: adaptive_ref(x, kind="max", **kw),
        adaptive_samples(3, distinct),
    ),  # fmt: skip
    OpInfo("interpolate", F.interpolate, interp_ref, interp_samples, double_grad=True),
    OpInfo("pad", F.pad, pad_ref, pad_samples, double_grad=True),
    OpInfo("unfold", F.unfold, unfold_ref, unfold_samples, double_grad=True),
    OpInfo("fold", F.fold, fold_ref, fold_samples, double_grad=True),
    OpInfo(
        "pixel_shuffle",
        F.pixel_shuffle,
        pixel_shuffle_ref,
        lambda rng: [Sample((r(rng, 1, 8, 2, 3), 2)), Sample((r(rng, 1, 2, 2, 9), 3), {"data_format": "NHWC"}, "NHWC")],
    ),  # fmt: skip
]
