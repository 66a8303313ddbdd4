"""`paddle.nn.utils.clip_grad_norm_` (the module) of paddle 2.6: clip_grad_norm_, re-exported from
nn/utils/clip_grad.py.

paddle.nn.utils.clip_grad_norm_ is the function, not this module: nn/utils/__init__.py binds the name from here,
after the module is imported, as paddle's does.
"""

from minipaddle.nn.utils.clip_grad import clip_grad_norm_

__all__ = ["clip_grad_norm_"]
