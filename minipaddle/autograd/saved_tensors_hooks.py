"""paddle.autograd.saved_tensors_hooks: pack/unpack hooks on the tensors backward will read (core/saved_hooks.py)."""

from __future__ import annotations

from minipaddle.core.saved_hooks import SavedTensorsHooks, set_hooks


class saved_tensors_hooks:  # noqa: N801  (paddle's name)
    """Inside the block, every tensor an op saves for backward goes through `pack_hook`, and backward gets it
    back through `unpack_hook`.

    Args:
        pack_hook (callable): called with each saved Tensor (an op's inputs or outputs its gradient reads, or what
            `PyLayerContext.save_for_backward` gets) when it is saved; what it returns is kept instead.
        unpack_hook (callable): called with what pack_hook returned when backward needs the tensor; must return a
            Tensor of the same shape, dtype and (for a correct gradient) content.

    Example:
        >>> def pack_hook(x):
        ...     return x.numpy()              # e.g. keep a copy elsewhere
        >>> def unpack_hook(x):
        ...     return paddle.to_tensor(x)
        >>> a = paddle.ones([3, 3]); a.stop_gradient = False
        >>> with paddle.autograd.saved_tensors_hooks(pack_hook, unpack_hook):
        ...     y = paddle.multiply(a, a)     # packs a twice (x and y of multiply)
        >>> y.sum().backward()                # unpacks both, then computes a.grad
    """

    def __init__(self, pack_hook, unpack_hook) -> None:
        for arg, hook in (("pack_hook", pack_hook), ("unpack_hook", unpack_hook)):
            if not callable(hook):
                raise TypeError(f"saved_tensors_hooks: {arg} must be callable, got {type(hook).__name__}")
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook
        self._previous = None

    def __enter__(self):
        self._previous = set_hooks(SavedTensorsHooks(self.pack_hook, self.unpack_hook))

    def __exit__(self, *exc) -> None:
        set_hooks(self._previous)  # (paddle resets to none; restoring the outer pair lets blocks nest)
