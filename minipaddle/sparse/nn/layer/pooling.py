"""paddle.sparse.nn.MaxPool3D: the Layer of functional/pooling.py's max_pool3d."""

from __future__ import annotations

from minipaddle.nn.layer.layers import Layer
from minipaddle.sparse.nn.functional.pooling import max_pool3d

__all__ = ["MaxPool3D"]


class MaxPool3D(Layer):
    """MaxPool3D(kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False, data_format='NDHWC').
    return_mask=True is refused: paddle 2.6's sparse pooling returns no mask either (it ignores the flag)."""

    def __init__(self, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False, data_format="NDHWC",
                 name=None):  # fmt: skip
        super().__init__()
        if return_mask:
            raise ValueError("paddle.sparse.nn.MaxPool3D: return_mask=True is not supported (paddle 2.6's sparse "
                             "max pooling returns no mask)")  # fmt: skip
        self.ksize, self.stride, self.padding = kernel_size, stride, padding
        self.ceil_mode, self.data_format = ceil_mode, data_format

    def forward(self, x):
        return max_pool3d(x, self.ksize, stride=self.stride, padding=self.padding, ceil_mode=self.ceil_mode,
                          data_format=self.data_format)  # fmt: skip

    def extra_repr(self) -> str:
        return f"kernel_size={self.ksize}, stride={self.stride}, padding={self.padding}"
