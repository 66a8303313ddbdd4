"""Paddle's top-level runtime helpers: check_shape (static mode's shape-argument check), disable_signal_handler,
and IrGuard (build static Programs inside a `with` block)."""

from __future__ import annotations

from minipaddle.core.dtype import DType
from minipaddle.core.state import in_dynamic_mode
from minipaddle.core.tensor import Tensor
from minipaddle.static.builder import disable_static, enable_static

__all__ = ["check_shape", "disable_signal_handler", "IrGuard"]


def _names(types) -> str:
    return ", ".join(t.__name__ if isinstance(t, type) else str(t) for t in types)


def _dtype_name(t: Tensor) -> str:
    d = t.dtype
    return d.name if isinstance(d, DType) else str(d)


def check_shape(
    shape,
    op_name: str,
    expected_shape_type=(list, tuple, Tensor),
    expected_element_type=(int, Tensor),
    expected_tensor_dtype=("int32", "int64"),
) -> None:
    """Check a `shape` argument while a static Program is being built, as Paddle's ops do before appending
    themselves: a list or tuple of ints or int Tensors, or one int Tensor. In dynamic mode it checks nothing (the
    op checks the values it gets), as in Paddle.

    Args:
        shape: the shape argument to check.
        op_name (str): the op to name in the error.
        expected_shape_type, expected_element_type: the types allowed for the shape and for its elements
            (None skips the element check).
        expected_tensor_dtype: the dtype names allowed for Tensors in the shape (None skips the check).

    Raises:
        TypeError: naming op_name, what was expected and what came.

    Example:
        >>> paddle.enable_static()
        >>> paddle.check_shape([2, 3], "reshape")     # passes
        >>> paddle.check_shape([2.0, 3], "reshape")   # TypeError: ... 'element of shape' ... float
    """
    if in_dynamic_mode():
        return
    if not isinstance(shape, tuple(expected_shape_type)):
        raise TypeError(
            f"The type of 'shape' in {op_name} must be one of ({_names(expected_shape_type)}), "
            f"but received {type(shape).__name__}."
        )
    allowed = tuple(expected_tensor_dtype) if expected_tensor_dtype is not None else None
    if isinstance(shape, Tensor):
        if allowed is not None and _dtype_name(shape) not in allowed:
            raise TypeError(
                f"The data type of 'shape' in {op_name} must be one of {allowed}, but received {_dtype_name(shape)}."
            )
        return
    if expected_element_type is None:
        return
    for item in shape:
        if not isinstance(item, tuple(expected_element_type)):
            raise TypeError(
                f"The type of 'element of shape' in {op_name} must be one of ({_names(expected_element_type)}), "
                f"but received {type(item).__name__}."
            )
        if allowed is not None and isinstance(item, Tensor) and _dtype_name(item) not in allowed:
            raise TypeError(
                f"The data type of 'element of shape' in {op_name} must be one of {allowed}, but received "
                f"{_dtype_name(item)}. If element of shape is Tensor, its data type should be {', '.join(allowed)}"
            )


def disable_signal_handler() -> None:
    """Remove the signal handlers Paddle installs in C++ to print a stack on a crash, for frameworks (TVM, ADLIK)
    that need those signals. minipaddle is pure Python and installs none, so there is nothing to remove.

    Example:
        >>> paddle.disable_signal_handler()
    """
    return None


class IrGuard:
    """`with paddle.IrGuard():` builds the block's ops into static Programs with Paddle's new IR (PIR),
    switching to static mode for the block when it was dynamic and back after. minipaddle has one static IR,
    the Program of paddle.static, so the block builds ordinary Programs.

    Example:
        >>> with paddle.IrGuard():
        ...     x = paddle.static.data("x", [2, 3], "float32")
    """

    def __init__(self) -> None:
        self.in_dygraph_outside = False

    def __enter__(self) -> None:
        self.in_dygraph_outside = in_dynamic_mode()
        if self.in_dygraph_outside:
            enable_static()

    def __exit__(self, *exc) -> None:
        if self.in_dygraph_outside:
            disable_static()
