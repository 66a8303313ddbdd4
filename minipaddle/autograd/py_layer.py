"""PyLayer: an op whose forward and backward are the user's own Python code (`paddle.autograd.PyLayer`).

    class cus_tanh(PyLayer):
        @staticmethod
        def forward(ctx, x):
            y = paddle.tanh(x)
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, dy):
            (y,) = ctx.saved_tensor()
            return dy * (1 - paddle.square(y))

    y = cus_tanh.apply(x)

How it plugs into autograd without touching the engine. `apply`
1. runs the user's `forward` under no_grad, so the ops inside it leave no graph of their own;
2. records the whole call as ONE op through the one door, `dispatch.apply`, with forward's Tensor arguments as
   the op's inputs. The op is a `PyLayerOp` made for this call (it holds this call's context, so it is not
   registered in OPS): its kernel hands back the arrays forward already computed, and its grad rule calls the
   user's `backward` and checks that one gradient came back per Tensor input, as every grad rule must;
3. returns forward's results with each Tensor swapped for the op's recorded output, and swaps the context's saved
   tensors the same way, so that a backward reading a saved output (tanh: 1 - y*y) reads it attached to the graph.

The engine runs grad rules under no_grad unless `create_graph=True`; then the user's backward is recorded like any
other grad rule, which gives double backward whenever backward is written with paddle ops.

PyLayers run in dynamic mode only: a Program is plain data and cannot hold Python functions.
"""

from __future__ import annotations

from minipaddle.core.dispatch import apply
from minipaddle.core.op import OpDef
from minipaddle.core.saved_hooks import active_hooks
from minipaddle.core.state import in_dynamic_mode, is_grad_enabled, no_grad
from minipaddle.core.tensor import Tensor

__all__ = ["PyLayer", "PyLayerContext"]


class _PackedValue:
    """What pack_hook returned for one saved tensor (told apart from a non-Tensor saved as it is)."""

    __slots__ = ("value",)

    def __init__(self, value) -> None:
        self.value = value


class PyLayerContext:
    """The `ctx` that a PyLayer's forward and backward share: what forward saves, backward reads.

    Attributes set by forward (`ctx.scale = 2.0`) are there in backward too. `needs_input_grad` (a tuple of bools,
    one per Tensor input, as in PyTorch) says which inputs want a gradient.
    """

    def __init__(self) -> None:
        self.container = None
        self.non_differentiable = ()
        self.not_inplace_tensors = ()
        self.needs_input_grad = ()
        self.packed = None  # (unpack_hook, packed values) under saved_tensors_hooks

    def save_for_backward(self, *tensors) -> None:
        """Keep `tensors` for backward (call it once, in forward); backward gets them from `saved_tensor()`."""
        self.container = tensors

    def saved_tensor(self):
        """The tensors given to `save_for_backward`, as a tuple, or None when nothing was saved."""
        if self.packed is not None:  # saved_tensors_hooks: unpacked when backward first asks
            unpack, values = self.packed
            self.container = tuple(unpack(v.value) if isinstance(v, _PackedValue) else v for v in values)
            self.packed = None
        return self.container

    def mark_non_differentiable(self, *tensors) -> None:
        """Mark outputs of forward that have no gradient (indices, masks): they get stop_gradient=True, and
        backward receives zeros for them."""
        self.non_differentiable = tensors

    def mark_not_inplace(self, *tensors) -> None:
        """Paddle's guard against an output that is an input returned as it is. Here every output is a new Tensor
        anyway, so an input's gradient history is never overwritten."""
        self.not_inplace_tensors = tensors


class PyLayerOp(OpDef):
    """One call of a PyLayer, as an op: the kernel returns forward's results, the grad rule is the user's
    backward. Made afresh for every call; never registered in OPS."""

    saves_inputs = False  # the context holds whatever backward needs

    def __init__(self, layer: type, ctx: PyLayerContext, results) -> None:
        self.name = layer.__name__  # how the node shows in graphs and error messages
        self.layer = layer
        self.ctx = ctx
        self.results = results  # a numpy array, or a tuple of them

    def kernel(self, *inputs):
        return self.results

    def grad(self, node, *grads):
        result = self.layer.backward(self.ctx, *grads)
        if result is None or isinstance(result, Tensor):
            result = (result,)
        if not isinstance(result, (tuple, list)):
            raise TypeError(f"PyLayer {self.name}: backward must return Tensors (or None), got {type(result).__name__}")
        n = len(node.inputs)
        missing = [i for i in range(len(result), n) if node.needs_grad(i)]
        if len(result) > n or missing:
            raise ValueError(
                f"PyLayer {self.name}: backward must return one gradient per Tensor input of forward ({n}, in order; "
                f"None for an input without gradient), but it returned {len(result)}"
            )
        for i, g in enumerate(result):
            if g is not None and not isinstance(g, Tensor):
                raise TypeError(
                    f"PyLayer {self.name}: backward's gradient {i} must be a Tensor or None, got {type(g).__name__}"
                )
        return (*result, *[None] * (n - len(result)))


class PyLayer:
    """The base of a custom op written in Python: subclass it with two static methods and call `apply`.

    - `forward(ctx, *args, **kwargs)` computes the outputs with paddle ops (run without recording gradients) and
      returns a Tensor or a tuple/list holding Tensors (other values pass through). Tensor arguments, positional or
      keyword, are the op's inputs; other arguments are settings.
    - `backward(ctx, *grads)` gets one gradient per Tensor output of forward and returns one gradient (a Tensor, or
      None) per Tensor input, in order.

    Example:
        >>> class cus_tanh(PyLayer):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         y = paddle.tanh(x)
        ...         ctx.save_for_backward(y)
        ...         return y
        ...     @staticmethod
        ...     def backward(ctx, dy):
        ...         (y,) = ctx.saved_tensor()
        ...         return dy * (1 - paddle.square(y))
        >>> x = paddle.randn([2, 3]); x.stop_gradient = False
        >>> cus_tanh.apply(x).mean().backward()
    """

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run forward on the arguments and record the call, so that backward runs the class's backward."""
        name = cls.__name__
        if not in_dynamic_mode():
            raise RuntimeError(f"PyLayer {name}: custom Python layers run in dynamic mode only; call "
                               "paddle.disable_static() first")  # fmt: skip
        for method in ("forward", "backward"):
            if not callable(getattr(cls, method, None)):
                raise TypeError(f"PyLayer {name}: define a static method {method}(ctx, ...) on the class")
        inputs = tuple(a for a in (*args, *kwargs.values()) if isinstance(a, Tensor))
        _refuse_tensors_in_lists(name, (*args, *kwargs.values()))
        ctx = PyLayerContext()
        ctx.needs_input_grad = tuple(is_grad_enabled() and not t.stop_gradient for t in inputs)
        with no_grad():
            out = cls.forward(ctx, *args, **kwargs)

        returned = list(out) if isinstance(out, (tuple, list)) else [out]
        tensors = [o for o in returned if isinstance(o, Tensor)]
        if not tensors:
            raise ValueError(f"PyLayer {name}: forward must return a Tensor, or a tuple/list holding at least one "
                             f"Tensor, got {type(out).__name__}")  # fmt: skip
        arrays = tuple(t.numpy() for t in tensors)
        recorded = apply(PyLayerOp(cls, ctx, arrays if len(arrays) > 1 else arrays[0]), inputs)
        recorded = recorded if isinstance(recorded, tuple) else (recorded,)

        swap = {id(t): r for t, r in zip(tensors, recorded)}
        for t in ctx.non_differentiable:
            if id(t) in swap:
                swap[id(t)].stop_gradient = True
        if ctx.container is not None:
            ctx.container = tuple(swap.get(id(t), t) for t in ctx.container)
            hooks = active_hooks()
            if hooks is not None and recorded[0]._node is not None:  # saved_tensors_hooks: pack what was saved
                ctx.packed = hooks.unpack, tuple(_PackedValue(hooks.pack(t)) if isinstance(t, Tensor) else t
                                                 for t in ctx.container)  # fmt: skip
                ctx.container = None
        if not isinstance(out, (tuple, list)):
            return swap[id(out)]
        return type(out)(swap.get(id(o), o) for o in out)


def _refuse_tensors_in_lists(name: str, values) -> None:
    """Only top-level Tensor arguments are inputs: a Tensor wanting a gradient inside a list would silently get
    none, so it is refused."""
    for v in values:
        if isinstance(v, (list, tuple, dict)):
            items = v.values() if isinstance(v, dict) else v
            if any(isinstance(t, Tensor) and not t.stop_gradient for t in items):
                raise TypeError(f"PyLayer {name}: a Tensor that needs a gradient is inside a {type(v).__name__} "
                                "argument; pass each such Tensor to apply as an argument of its own")  # fmt: skip
