"""`paddle.device.cuda.streams` of paddle 2.6: Stream and Event, re-exported from paddle.device.cuda (which refuses
to make either: minipaddle has no GPU)."""

from minipaddle.device.cuda import Event, Stream

__all__ = ["Stream", "Event"]
