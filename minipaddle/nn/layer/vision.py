"""`paddle.nn.layer.vision`, a module path of paddle 2.6, so that imports from it run
unchanged: its names, re-exported from where minipaddle defines them."""

from minipaddle.nn.layer.common import ChannelShuffle, PixelShuffle, PixelUnshuffle

__all__ = ["ChannelShuffle", "PixelShuffle", "PixelUnshuffle"]
