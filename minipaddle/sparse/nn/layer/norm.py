"""paddle.sparse.nn.BatchNorm: batch normalization of a COO tensor's stored values ([nnz, C], channels last), as
paddle 2.6's sparse_batch_norm: the zeros that are not stored take no part in the statistics, and the output keeps
the input's pattern. It is paddle.nn.BatchNorm1D over the values, with paddle 2.6's handling of use_global_stats
(below), recorded in tests/golden/sparse/norm.json."""

from __future__ import annotations

import warnings

from minipaddle.nn import functional as F
from minipaddle.nn.layer.norm import BatchNorm1D
from minipaddle.sparse.tensor import SparseCooTensor

__all__ = ["BatchNorm"]


class BatchNorm(BatchNorm1D):
    """BatchNorm(num_features, momentum=0.9, epsilon=1e-05, weight_attr=None, bias_attr=None, data_format='NDHWC',
    use_global_stats=None, name=None).

    As paddle 2.6: with use_global_stats=None, the first call fixes it to `not self.training` for good. So a layer
    first called in training goes on normalizing with the batch's statistics after eval() (and updates the running
    ones), while one first called in eval mode uses the running statistics. use_global_stats=True always uses them.
    """

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None, bias_attr=None,
                 data_format="NDHWC", use_global_stats=None, name=None):  # fmt: skip
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, "NC", use_global_stats, name)
        self._sparse_format = data_format

    def forward(self, input):
        if self._sparse_format not in ("NDHWC", "NHWC"):
            raise ValueError(f"paddle.sparse.nn.BatchNorm: data_format must be 'NDHWC' or 'NHWC' (channels last), "
                             f"got {self._sparse_format!r}")  # fmt: skip
        if not isinstance(input, SparseCooTensor):
            raise TypeError(f"paddle.sparse.nn.BatchNorm: input must be a SparseCooTensor, got {type(input).__name__}")
        if self.training:
            warnings.warn("When training, we now always track global mean and variance.", stacklevel=2)
        if self._use_global_stats is None:
            self._use_global_stats = not self.training
            batch_statistics = False
        else:
            batch_statistics = not self._use_global_stats
        # paddle's kernel normalizes with the running statistics only in test mode without trainable statistics;
        # otherwise it uses the batch's and updates the running ones, whatever self.training says
        test_mode = (not self.training) and not batch_statistics
        use_running = self._use_global_stats or test_mode
        values = F.batch_norm(input.values(), self._mean, self._variance, weight=self.weight, bias=self.bias,
                              training=not use_running, momentum=self._momentum, epsilon=self._epsilon,
                              data_format="NCHW", use_global_stats=use_running)  # fmt: skip
        return SparseCooTensor(input.indices(), values, input.shape)
