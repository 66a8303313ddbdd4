"""`paddle.nn.functional.flash_attention`, a module path of paddle 2.6, so that imports from it run
unchanged: its names, re-exported from where minipaddle defines them."""

from minipaddle.nn.functional.attention import scaled_dot_product_attention

__all__ = ["scaled_dot_product_attention"]
