"""fleet.utils: recompute (activation checkpointing)."""

from minipaddle.distributed.fleet.utils.recompute import recompute

__all__ = ["recompute"]
