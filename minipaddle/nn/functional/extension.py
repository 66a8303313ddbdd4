"""`paddle.nn.functional.extension`, a module path of paddle 2.6, so that imports from it run
unchanged: its names, re-exported from where minipaddle defines them."""

from minipaddle.nn.functional.sequence import gather_tree, sequence_mask
from minipaddle.nn.functional.vision import temporal_shift
from minipaddle.tensor.creation import diag_embed

__all__ = ["diag_embed", "gather_tree", "sequence_mask", "temporal_shift"]
