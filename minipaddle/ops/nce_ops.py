"""The op behind paddle.static.nn.nce: drawing its negative classes (nce_sample). The loss itself is a composition
of differentiable ops (static/nn/nce.py)."""

from __future__ import annotations

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.dispatch import apply
from minipaddle.core.op import Meta, OpDef, register
from minipaddle.core.state import STATE
from minipaddle.core.tensor import Tensor

__all__ = ["nce_sample"]  # the raw op functions; ops/__init__.py gathers them

SAMPLERS = ("uniform", "log_uniform", "custom_dist")


def _draw(rng, shape, num_total_classes, sampler, probs, alias, alias_probs):
    """Class ids as Paddle's samplers draw them (range = num_total_classes - 1, as Paddle builds them)."""
    if sampler == "uniform":
        return rng.integers(0, num_total_classes, size=shape)
    if sampler == "log_uniform":  # inverse transform of the density 1 / ((x + 1) log(range + 1))
        value = np.exp(rng.random(shape) * np.log(num_total_classes)).astype(np.int64) - 1
        return value % (num_total_classes - 1)
    index = rng.integers(0, num_total_classes, size=shape)  # the alias method: a column, then it or its alias
    take_alias = (rng.random(shape) > alias_probs[index]) & (alias[index] != -1)
    return np.where(take_alias, alias[index], index).astype(np.int64)


def _probability(labels, num_total_classes, sampler, probs):
    """Each class's probability under the sampler, in float32 as Paddle's samplers return it."""
    if sampler == "uniform":
        return np.full(labels.shape, 1.0 / num_total_classes, np.float32)
    if sampler == "log_uniform":
        return (np.log((labels + 2.0) / (labels + 1.0)) / np.log(num_total_classes)).astype(np.float32)
    return probs[labels].astype(np.float32)


@register
class NceSample(OpDef):
    """For labels [N, T]: (sample labels [N, T + K], each row its T true classes then K classes drawn from the
    sampler; and K times each sample's probability under the sampler, in float32). seed = 0 draws from
    minipaddle's RNG; another seed draws the same samples at every run (as Paddle's per-run sampler does)."""

    name = "nce_sample"
    differentiable = False

    def kernel(self, label, probs, alias, alias_probs, num_total_classes=2, num_neg_samples=10, sampler="uniform",
               seed=0):  # fmt: skip
        if label.size and (label.min() < 0 or label.max() >= num_total_classes):
            raise ValueError(f"labels must be in [0, {num_total_classes}), got values from {label.min()} to "
                             f"{label.max()}")  # fmt: skip
        rng = STATE.rng if seed == 0 else np.random.default_rng(seed)
        negatives = _draw(rng, (label.shape[0], num_neg_samples), num_total_classes, sampler, probs, alias,
                          alias_probs)  # fmt: skip
        samples = np.concatenate([label.astype(np.int64), negatives.astype(np.int64)], axis=1)
        scaled = _probability(samples, num_total_classes, sampler, probs) * np.float32(num_neg_samples)
        return samples, scaled.astype(np.float32)

    def infer_meta(self, label: Meta, probs, alias, alias_probs, num_total_classes=2, num_neg_samples=10,
                   sampler="uniform", seed=0):  # fmt: skip
        shape = (label.shape[0], label.shape[1] + num_neg_samples if label.shape[1] >= 0 else -1)
        return Meta(shape, dtypes.int64), Meta(shape, dtypes.float32)


def nce_sample(label: Tensor, probs=None, alias=None, alias_probs=None, num_total_classes: int = 2,
               num_neg_samples: int = 10, sampler: str = "uniform", seed: int = 0):  # fmt: skip
    attrs = {"num_total_classes": num_total_classes, "num_neg_samples": num_neg_samples, "sampler": sampler,
             "seed": seed}  # fmt: skip
    return apply(NceSample, (label, probs, alias, alias_probs), attrs)
