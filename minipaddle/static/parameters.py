"""Parameters in static mode: a Layer built inside `program_guard` gets Variables for its weights.

The values are made exactly as in dynamic mode (the same initializers, drawing from the same RNG), then
declared twice: as a persistable parameter Variable in the main Program, and in the startup Program with an
`assign_value` op that writes those initial values into the scope when the startup Program runs.
"""

from __future__ import annotations

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.tensor import Parameter
from minipaddle.nn import static_hooks
from minipaddle.ops.constant import AssignValue
from minipaddle.ops.manipulation import Cast
from minipaddle.static.builder import slot_inputs
from minipaddle.static.program import Variable, default_main_program, default_startup_program


class StaticParameter(Variable, Parameter):
    """A parameter of a static Program: a Variable (no values while building) that Layers treat as a Parameter."""

    __slots__ = ()

    def __init__(self, block, name: str, shape, dtype, trainable: bool = True) -> None:
        Variable.__init__(self, block, name=name, shape=shape, dtype=dtype, persistable=True,
                          stop_gradient=not trainable, is_parameter=True)  # fmt: skip
        self.optimize_attr = {"learning_rate": 1.0}
        self.regularizer = None
        self.need_clip = True
        self.do_model_average = None

    def copy_to(self, block) -> StaticParameter:
        """The same parameter, with its optimizer attributes, declared in another block (Program.clone)."""
        v = StaticParameter(block, self._name, self._static_shape, self.dtype, self.trainable)
        for attr in ("optimize_attr", "regularizer", "need_clip", "do_model_average"):
            setattr(v, attr, getattr(self, attr, None))
        return v

    # Parameter's property (trainable is the flip side of stop_gradient), which Variable's `trainable` slot
    # would otherwise hide, coming first in the method resolution order.
    trainable = Parameter.trainable


def declare_parameter(param: Parameter) -> StaticParameter:
    """Declare an initialized (dynamic) Parameter in the current main and startup Programs."""
    main = default_main_program().global_block()
    v = StaticParameter(main, param.name, param.shape, param.dtype, param.trainable)
    for attr in ("optimize_attr", "regularizer", "need_clip", "do_model_average"):
        setattr(v, attr, getattr(param, attr, None))
    main.vars[v.name] = v
    startup = default_startup_program().global_block()
    startup.vars[v.name] = StaticParameter(startup, param.name, param.shape, param.dtype, param.trainable)
    _initialize_in_startup(v.name, param.numpy())
    return v


def declare_persistable(name: str, value: np.ndarray) -> Variable:
    """A persistable, non-parameter Variable (optimizer state, a learning rate) starting at `value`: declared in
    the main Program, and set to `value` by the startup Program."""
    d = dtypes.from_numpy(value.dtype)
    main = default_main_program().global_block()
    v = main.create_var(name, value.shape, d, persistable=True, stop_gradient=True)
    default_startup_program().global_block().create_var(name, value.shape, d, persistable=True)
    _initialize_in_startup(name, value)
    return v


def declare_master_weight(param: Variable, name: str) -> Variable:
    """The float32 master copy of a low-precision parameter (multi_precision): persistable, and set by the startup
    Program from the parameter's own initial value (float32 there: paddle's O2 marks parameters float16 in the
    main Program only), so the copy keeps the precision the float16 parameter loses."""
    main = default_main_program().global_block()
    v = main.create_var(name, param.shape, dtypes.float32, persistable=True, stop_gradient=True)
    startup = default_startup_program().global_block()
    startup.create_var(name, param.shape, dtypes.float32, persistable=True)
    startup.append_op(Cast.name, slot_inputs(Cast, [param.name]), {"Out": [name]}, {"dtype": np.float32})
    return v


def _initialize_in_startup(name: str, values: np.ndarray) -> None:
    startup = default_startup_program().global_block()
    attrs = {"values": values.reshape(-1).tolist(), "shape": tuple(values.shape),
             "dtype": dtypes.from_numpy(values.dtype).name}  # fmt: skip
    startup.append_op(AssignValue.name, slot_inputs(AssignValue, []), {"Out": [name]}, attrs)


static_hooks.install(declare_parameter=declare_parameter)
