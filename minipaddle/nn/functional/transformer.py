"""`paddle.nn.functional.transformer` of paddle 2.6, which is empty there too (the attention functions live in
nn/functional/flash_attention.py and paddle.incubate)."""

__all__ = []
