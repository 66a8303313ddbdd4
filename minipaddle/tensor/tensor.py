"""`paddle.tensor.tensor` of paddle 2.6, which is empty there too (Tensor's methods are bound elsewhere)."""

__all__ = []
