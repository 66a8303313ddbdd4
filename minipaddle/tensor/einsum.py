"""paddle.einsum: Einstein summation over any number of operands, as paddle/tensor/einsum.py.

The equation is parsed once; each operand first takes its repeated labels' diagonals and sums the labels no
one else needs, then the operands are contracted pairwise with one matmul each (a composition of ops, so the
gradient comes from those ops).
"""

from __future__ import annotations

import numpy as np

from minipaddle import ops
from minipaddle.core.tensor import Tensor
from minipaddle.tensor.dtype_support import check_accepted
from minipaddle.tensor.manipulation import _check_one_dtype

__all__ = [
    "einsum",
]


# ---- einsum ----------------------------------------------------------------------------------------------------


def _parse_einsum(equation: str, operands: list):
    """Each operand's labels (one per dimension; the dimensions of '...' get labels '.0', '.1', ... counted from
    the right) and the output's labels."""
    fn = "einsum"
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(operands):
        raise ValueError(f"{fn}: the equation {equation!r} has {len(terms)} input terms but {len(operands)} "
                         "operands were given")  # fmt: skip
    inputs, n_ellipsis = [], 0
    for k, (term, t) in enumerate(zip(terms, operands)):
        head, dots, tail = term.partition("...")
        for c in head + tail:
            if not c.isascii() or not c.isalpha():
                raise ValueError(f"{fn}: labels must be letters a-z, A-Z, got {c!r} in {equation!r}")
        if "." in tail or (not dots and "." in head):
            raise ValueError(f"{fn}: a term may hold one '...' and no other dots, got {term!r}")
        free = t.ndim - len(head) - len(tail)
        if free < 0 or (not dots and free):
            raise ValueError(f"{fn}: term {term!r} has {len(head) + len(tail)} labels but operand {k} has "
                             f"{t.ndim} dimensions (shape {t.shape})")  # fmt: skip
        n_ellipsis = max(n_ellipsis, free)
        inputs.append(list(head) + [f".{free - 1 - i}" for i in range(free)] + list(tail))
    dots = [f".{i}" for i in reversed(range(n_ellipsis))]
    if arrow:
        head, has_dots, tail = rhs.partition("...")
        if "." in head + tail:
            raise ValueError(f"{fn}: the output may hold one '...' and no other dots, got {rhs!r}")
        if n_ellipsis and not has_dots:
            raise ValueError(f"{fn}: the inputs have '...' dimensions, so the output needs '...' too: {equation!r}")
        output = list(head) + (dots if has_dots else []) + list(tail)
        seen = [label for term in inputs for label in term]
        for c in output:
            if not c.startswith(".") and c not in seen:
                raise ValueError(f"{fn}: output label {c!r} appears in no input term of {equation!r}")
        if len(set(output)) != len(output):
            raise ValueError(f"{fn}: the output repeats a label: {rhs!r}")
    else:  # implicit: '...' first, then the labels used once, lowercase before uppercase (as paddle 2.6)
        letters = [c for term in terms for c in term.replace("...", "")]
        once = sorted((c for c in set(letters) if letters.count(c) == 1), key=lambda c: (c.isupper(), c))
        output = dots + once
    return inputs, output


def _label_sizes(inputs, operands) -> dict:
    """The size of every label; letters must agree, '...' dimensions broadcast (size 1 stretches)."""
    sizes = {}
    for labels, t in zip(inputs, operands):
        for label, d in zip(labels, t.shape):
            have = sizes.get(label)
            if have is None or have == 1 and label.startswith("."):
                sizes[label] = d
            elif have != d and not (label.startswith(".") and d == 1):
                raise ValueError(f"einsum: label {label if not label.startswith('.') else '...'!r} has sizes "
                                 f"{have} and {d} in different places")  # fmt: skip
    return sizes


def _take_diagonals(t: Tensor, labels: list) -> tuple[Tensor, list]:
    """A label repeated within one term ('ii') reads a diagonal: keep one axis per label."""
    labels = list(labels)
    while len(set(labels)) != len(labels):
        label = next(c for c in labels if labels.count(c) > 1)
        i = labels.index(label)
        j = labels.index(label, i + 1)
        t = ops.extract_diagonal(t, 0, i, j)  # the diagonal becomes the last axis
        labels = [c for k, c in enumerate(labels) if k not in (i, j)] + [label]
    return t, labels


def _sum_labels(t: Tensor, labels: list, drop) -> tuple[Tensor, list]:
    axes = tuple(i for i, c in enumerate(labels) if c in drop)
    if not axes:
        return t, labels
    return ops.sum(t, axes), [c for c in labels if c not in drop]


def _stretch(t: Tensor, labels: list, sizes: dict) -> Tensor:
    """Broadcast size-1 '...' dimensions to the common size."""
    want = tuple(sizes[c] for c in labels)
    return t if tuple(t.shape) == want else ops.expand(t, want)


def _contract(a: Tensor, la: list, b: Tensor, lb: list, keep: set, sizes: dict) -> tuple[Tensor, list]:
    """Multiply two operands and sum the labels they share that are not kept, as one batched matmul."""
    a, la = _sum_labels(a, la, [c for c in la if c not in lb and c not in keep])
    b, lb = _sum_labels(b, lb, [c for c in lb if c not in la and c not in keep])
    a, b = _stretch(a, la, sizes), _stretch(b, lb, sizes)
    batch = [c for c in la if c in lb and c in keep]
    summed = [c for c in la if c in lb and c not in keep]
    only_a = [c for c in la if c not in lb]
    only_b = [c for c in lb if c not in la]

    def size(group):
        return int(np.prod([sizes[c] for c in group]))

    at = ops.transpose(a, tuple(la.index(c) for c in batch + only_a + summed))
    bt = ops.transpose(b, tuple(lb.index(c) for c in batch + summed + only_b))
    at = ops.reshape(at, (size(batch), size(only_a), size(summed)))
    bt = ops.reshape(bt, (size(batch), size(summed), size(only_b)))
    out = ops.matmul(at, bt)
    labels = batch + only_a + only_b
    return ops.reshape(out, tuple(sizes[c] for c in labels)), labels


def einsum(equation, *operands) -> Tensor:
    """Einstein summation: products of the operands summed over the labels missing from the output.

    The equation names each operand's dimensions with letters ('ij,jk->ik' is a matrix product). A label
    repeated within one term reads a diagonal ('ii->i'); '...' stands for the leading dimensions, which
    broadcast. Without '->' the output holds '...' and then every label used once, in alphabetical order
    (lowercase before uppercase). Built from transpose, reshape, diagonal, sum and matmul, so it is
    differentiable in every operand.

    Example:
        >>> a, b = paddle.ones([2, 3]), paddle.ones([3, 4])
        >>> paddle.einsum('ij,jk->ik', a, b).shape    # [2, 4]
        >>> paddle.einsum('ii', paddle.eye(3))        # 3. (the trace)
    """
    fn = "einsum"
    if not isinstance(equation, str):
        raise TypeError(f"{fn}: equation must be a str, got {type(equation).__name__}")
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not operands:
        raise ValueError(f"{fn}: give at least one operand")
    _check_one_dtype(operands, fn, "operands", "operands")
    check_accepted(operands[0], fn, "operands")  # (all of one dtype now)
    inputs, output = _parse_einsum(equation, list(operands))
    sizes = _label_sizes(inputs, operands)
    terms = [_take_diagonals(t, labels) for t, labels in zip(operands, inputs)]
    # A label that appears in one operand only and not in the output is summed there and then.
    for k, (t, labels) in enumerate(terms):
        elsewhere = {c for j, (_, other) in enumerate(terms) if j != k for c in other}
        terms[k] = _sum_labels(t, labels, [c for c in labels if c not in elsewhere and c not in output])
    result, labels = terms[0]
    for k in range(1, len(terms)):
        later = {c for _, other in terms[k + 1 :] for c in other}
        result, labels = _contract(result, labels, *terms[k], set(output) | later, sizes)
    result = _stretch(result, labels, sizes)
    if labels != output:
        result = ops.transpose(result, tuple(labels.index(c) for c in output))
    return ops.assign(result) if result is operands[0] else result
