"""`paddle.io.dataloader.collate` of paddle 2.6: how a list of samples becomes a batch, re-exported from
io/collate.py."""

from minipaddle.io.collate import default_collate_fn, default_convert_fn

__all__ = ["default_collate_fn", "default_convert_fn"]
