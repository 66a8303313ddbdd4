"""A Program is data: Program -> Block -> OpDesc and Variable, with no Python callables inside (DESIGN.md, wall 4).

    main = paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [-1, 4], "float32")     # a Variable: a name, a shape (-1 = unknown), a dtype
        y = paddle.nn.functional.relu(x)                     # appends OpDesc(type='relu', inputs, outputs, attrs)

A Variable is a Tensor without values: the same public functions and methods accept it, and the op door
(core/dispatch.py), seeing static mode on, appends an OpDesc instead of running the kernel. Executor runs the
ops later with the same kernels. Everything here turns into JSON (static/serialize.py).
"""

from __future__ import annotations

import contextlib
import copy

import numpy as np

from minipaddle.core import dtype as dtypes
from minipaddle.core.state import STATE, layer_scope, unique_name
from minipaddle.core.tensor import Tensor

ROLE_FORWARD, ROLE_BACKWARD, ROLE_OPTIMIZE = "forward", "backward", "optimize"
TRAINING_FLAG = "@IS_TRAINING@"  # the bool that train/eval switches read (static/train_switch.py)


class Variable(Tensor):
    """A named slot in a Block: shape (with -1 for a size known only at run time), dtype, and flags.

    `_data` is a stand-in (a zero-strided array with the right dtype and -1 read as 1) so that code that asks
    a tensor for its dtype works unchanged; a Variable has no values until an Executor runs its Program.
    """

    __slots__ = ("block", "_static_shape", "is_data", "is_parameter", "trainable", "initializer")

    def __init__(
        self,
        block,
        type="lod_tensor",
        name=None,
        shape=None,
        dtype=None,
        lod_level=None,
        capacity=None,
        persistable=None,
        error_clip=None,
        stop_gradient=False,
        is_data=False,
        need_check_feed=False,
        belong_to_optimizer=False,
        is_parameter=False,
    ):  # (Paddle's parameters, in its order)
        d = dtypes.to_dtype(dtype if dtype is not None else "float32")
        shape = tuple(int(s) for s in (shape if shape is not None else ()))
        name = name if name is not None else unique_name("_generated_var")
        persistable = bool(persistable)
        super().__init__(np.broadcast_to(np.zeros((), d.np), tuple(1 if s < 0 else s for s in shape)), stop_gradient)
        self.block = block
        self._name = name
        self._static_shape = shape
        self.persistable = persistable
        self.is_data = is_data
        self.is_parameter = is_parameter
        self.trainable = is_parameter and not stop_gradient
        self.initializer = None

    @property
    def shape(self) -> list:
        """The static shape, -1 where unknown. A list, like Tensor.shape (Paddle's static Variable gives a tuple;
        one type for both keeps every shape check in the library working on both)."""
        return list(self._static_shape)

    @property
    def ndim(self) -> int:
        return len(self._static_shape)

    @property
    def size(self) -> int:
        return int(np.prod(self._static_shape)) if -1 not in self._static_shape else -1

    @property
    def name(self) -> str:
        return self._name

    @name.setter
    def name(self, value: str) -> None:
        self._name = value

    def numpy(self):
        raise RuntimeError(
            f"Variable {self._name} has no value while the Program is being built; run the Program with an "
            "Executor and fetch it: exe.run(main, feed=..., fetch_list=[var])"
        )

    def __array__(self, dtype=None, copy=None):
        self.numpy()

    def __bool__(self) -> bool:
        raise TypeError(
            f"Variable {self._name} has no value while the Program is being built, so it cannot decide a Python "
            "`if` or `while`; use paddle.static.nn.cond / while_loop (or paddle.jit.to_static, which converts them)"
        )

    def item(self, *args):
        self.numpy()

    def copy_to(self, block) -> Variable:
        """The same variable declared in another block (Program.clone)."""
        v = Variable(
            block,
            name=self._name,
            shape=self._static_shape,
            dtype=self.dtype,
            persistable=self.persistable,
            stop_gradient=self.stop_gradient,
            is_data=self.is_data,
            is_parameter=self.is_parameter,
        )
        v.trainable = self.trainable
        return v

    def to_dict(self) -> dict:
        return {
            "name": self._name,
            "shape": list(self._static_shape),
            "dtype": self.dtype.name,
            "persistable": self.persistable,
            "stop_gradient": self.stop_gradient,
            "is_data": self.is_data,
            "is_parameter": self.is_parameter,
        }

    def describe(self) -> str:
        """One line as Paddle prints a var: `persist trainable param fc_0.w_0 : shape(4, 3).dtype(float32)...`."""
        kind = "persist " if self.persistable else ""
        if self.is_parameter:
            kind += "trainable param " if self.trainable else "param "
        else:
            kind += "var "
        dims = [str(s) for s in self._static_shape]
        shape = "(" + ", ".join(dims) + ("," if len(dims) == 1 else "") + ")"
        return f"{kind}{self._name} : shape{shape}.dtype({self.dtype.name}).stop_gradient({self.stop_gradient})"

    def __repr__(self) -> str:
        return f"Variable({self.describe()})"

    __str__ = __repr__


class OpDesc:
    """One op in a Block: its type, input and output variable names by slot, attributes, and role.

    `quant_attrs` holds what a saved quantized model notes about an op for int8 engines (`Input0_threshold`,
    `out_threshold`, `with_quant_attr`, `skip_quant`): Paddle keeps these among the attributes, minipaddle keeps
    them apart, because they describe the op and do not change what it computes; the kernel gets `attrs` only.
    They are written into a .pdmodel as Paddle's attributes and read back from one into this field."""

    def __init__(self, type: str, inputs: dict, outputs: dict, attrs: dict, role: str = ROLE_FORWARD,
                 scope: str = "", quant_attrs: dict | None = None):  # fmt: skip
        self.type = type
        self.inputs = inputs  # {slot: [var name or None, ...]}
        self.outputs = outputs
        self.attrs = attrs
        self.role = role
        self.scope = scope  # the Layer path the op was built under
        self.quant_attrs = {} if quant_attrs is None else quant_attrs
        self.group = None  # the OpGroup (static/op_groups.py) when the op is part of one Paddle op, else None

    def input_names(self) -> list:
        return [n for names in self.inputs.values() for n in names]

    def output_names(self) -> list:
        return [n for names in self.outputs.values() for n in names]

    def to_dict(self) -> dict:
        out = {"type": self.type, "inputs": self.inputs, "outputs": self.outputs, "attrs": self.attrs,
               "role": self.role, "scope": self.scope}  # fmt: skip
        if self.quant_attrs:  # (absent for the ordinary op: the JSON of an unquantized Program is unchanged)
            out["quant_attrs"] = self.quant_attrs
        if self.group is not None:  # one Paddle op built of several (static/op_groups.py): AMP decides it whole
            g = self.group
            out["group"] = {"paddle_op": g.paddle_op, "inputs": list(g.inputs), "output": g.output}
        return out

    def __repr__(self) -> str:
        outs = ", ".join(f"{k}={v}" for k, v in self.outputs.items())
        ins = ", ".join(f"{k}={v}" for k, v in self.inputs.items())
        attrs = ", ".join(f"{k} = {_attr_text(v)}" for k, v in sorted(self.attrs.items()))
        tail = f", {attrs}" if attrs else ""
        if self.quant_attrs:
            notes = ", ".join(f"{k}: {_attr_text(v)}" for k, v in sorted(self.quant_attrs.items()))
            tail += f", quant_attrs = {{{notes}}}"
        role = "" if self.role == ROLE_FORWARD else f"  [{self.role}]"
        return f"{{{outs}}} = {self.type}(inputs={{{ins}}}{tail}){role}"


def _attr_text(v) -> str:
    if isinstance(v, np.dtype):
        return v.name
    if isinstance(v, (list, tuple)) and len(v) > 8:
        return f"[{', '.join(map(str, v[:8]))}, ...]"
    return repr(v)


class Block:
    """An ordered list of ops and the variables they use. Block 0 is the Program's body; sub-blocks hold the
    branches of `cond` and the body of `while_loop`, and see their parent's variables."""

    def __init__(self, program: Program, idx: int, parent_idx: int = -1) -> None:
        self.program = program
        self.idx = idx
        self.parent_idx = parent_idx
        self.vars: dict[str, Variable] = {}
        self.ops: list[OpDesc] = []

    @property
    def parent(self):
        return None if self.parent_idx < 0 else self.program.blocks[self.parent_idx]

    def var(self, name: str) -> Variable:
        """The variable called `name` here or in an enclosing block (KeyError naming what exists otherwise)."""
        block = self
        while block is not None:
            if name in block.vars:
                return block.vars[name]
            block = block.parent
        raise KeyError(f"no variable named {name!r} in block {self.idx} or its parents")

    def has_var(self, name: str) -> bool:
        try:
            self.var(name)
            return True
        except KeyError:
            return False

    def create_var(self, name=None, shape=(), dtype="float32", persistable=False, stop_gradient=True,
                   is_data=False, is_parameter=False) -> Variable:  # fmt: skip
        name = name or unique_name("_generated_var")
        v = Variable(self, name=name, shape=shape, dtype=dtype, persistable=persistable, stop_gradient=stop_gradient,
                     is_data=is_data, is_parameter=is_parameter)  # fmt: skip
        self.vars[name] = v
        return v

    def create_parameter(self, name, shape, dtype, trainable=True) -> Variable:
        return self.create_var(name, shape, dtype, persistable=True, stop_gradient=not trainable, is_parameter=True)

    def append_op(self, type: str, inputs: dict, outputs: dict, attrs: dict, role=None, scope="") -> OpDesc:
        op = OpDesc(type, inputs, outputs, attrs, role or self.program.current_role, scope)
        self.ops.append(op)
        self.program._version += 1  # an Executor recompiles a Program that changed since its last run
        return op

    def all_parameters(self) -> list:
        return [v for v in self.vars.values() if v.is_parameter]

    def to_string(self) -> str:
        head = f"{{ // block_idx:{self.idx}  parent_idx:{self.parent_idx}"
        lines = [head] + [f"    {v.describe()}" for v in self.vars.values()] + [""]
        lines += [f"    {op!r}" for op in self.ops]
        return "\n".join(lines) + "\n}"

    def to_dict(self) -> dict:
        return {"idx": self.idx, "parent_idx": self.parent_idx, "vars": [v.to_dict() for v in self.vars.values()],
                "ops": [op.to_dict() for op in self.ops]}  # fmt: skip


class Program:
    """A whole static graph: a list of Blocks, block 0 first.

    `str(program)` prints every block's variables and ops; `clone(for_test=True)` copies it without the backward
    and optimizer ops, with ops switched to inference behaviour (dropout off, batch_norm on running stats).
    """

    def __init__(self) -> None:
        self.blocks: list[Block] = [Block(self, 0)]
        self.current_block_idx = 0
        self.current_role = ROLE_FORWARD
        self.random_seed = 0
        self._version = 0
        self.lr_feeds: list = []  # (learning-rate variable name, optimizer): set by the Executor before each run
        self.amp_loss_scaling = None  # what static.amp.decorate's minimize was asked for (static/paddle_amp_ops.py)

    # ---- structure ----

    def global_block(self) -> Block:
        return self.blocks[0]

    def block(self, idx: int) -> Block:
        return self.blocks[idx]

    def current_block(self) -> Block:
        return self.blocks[self.current_block_idx]

    @property
    def num_blocks(self) -> int:
        return len(self.blocks)

    def create_block(self, parent_idx: int | None = None) -> Block:
        """A new sub-block whose parent is the current block, made current (see `sub_block`)."""
        b = Block(self, len(self.blocks), self.current_block_idx if parent_idx is None else parent_idx)
        self.blocks.append(b)
        self.current_block_idx = b.idx
        return b

    def rollback(self) -> None:
        self.current_block_idx = self.current_block().parent_idx

    @contextlib.contextmanager
    def sub_block(self):
        """Build ops into a new child block inside the `with`; yields the block."""
        b = self.create_block()
        try:
            yield b
        finally:
            self.current_block_idx = b.parent_idx

    @contextlib.contextmanager
    def role(self, role: str):
        """Mark the ops appended inside as backward or optimizer ops (drawn differently, dropped by clone)."""
        prev, self.current_role = self.current_role, role
        try:
            yield
        finally:
            self.current_role = prev

    def list_vars(self) -> list:
        return [v for b in self.blocks for v in b.vars.values()]

    def all_parameters(self) -> list:
        return [v for b in self.blocks for v in b.all_parameters()]

    def state_dict(self, mode: str = "all", scope=None) -> dict:
        """{name: Tensor} of the persistable values ('all', 'param' or 'opt') in the scope (static/program_state.py)."""
        from minipaddle.static.program_state import state_dict

        return state_dict(self, mode, scope)

    def set_state_dict(self, state_dict: dict, scope=None) -> None:
        """Write persistable values back into the scope, each checked against its variable."""
        from minipaddle.static.program_state import set_state_dict

        set_state_dict(self, state_dict, scope)

    # ---- copies ----

    def clone(self, for_test: bool = False) -> Program:
        """A deep copy. With for_test=True: without backward/optimizer ops, and with `is_test` set on the ops
        that behave differently in inference (dropout, batch_norm)."""
        new = Program()
        new.blocks = []
        new.random_seed = self.random_seed
        new.lr_feeds = list(self.lr_feeds)
        new.amp_loss_scaling = self.amp_loss_scaling
        if hasattr(self, "lr_scheduler"):  # set by an optimizer with an LRScheduler, or by the user (as in Paddle)
            new.lr_scheduler = self.lr_scheduler
        for b in self.blocks:
            nb = Block(new, b.idx, b.parent_idx)
            for name, v in b.vars.items():
                nb.vars[name] = v.copy_to(nb)
            for op in b.ops:
                if for_test and op.role != ROLE_FORWARD:
                    continue
                attrs = copy.deepcopy(op.attrs)
                if for_test and "training" in attrs:
                    attrs["training"] = False
                if for_test and op.outputs.get("Out") == [TRAINING_FLAG]:  # dropout/batch_norm switch to eval
                    attrs["values"] = [False]
                nb.ops.append(OpDesc(op.type, copy.deepcopy(op.inputs), copy.deepcopy(op.outputs), attrs,
                                     op.role, op.scope, copy.deepcopy(op.quant_attrs)))  # fmt: skip
                nb.ops[-1].group = op.group  # (immutable: the copies share it)
            new.blocks.append(nb)
        if for_test:
            _drop_unused_vars(new)
        return new

    # ---- text and data ----

    def to_string(self, throw_on_error: bool = False, with_details: bool = False) -> str:
        return "\n\n".join(b.to_string() for b in self.blocks)

    def __str__(self) -> str:
        return self.to_string()

    def __repr__(self) -> str:
        n_ops = sum(len(b.ops) for b in self.blocks)
        return f"<Program: {self.num_blocks} block(s), {n_ops} op(s), {len(self.list_vars())} var(s)>"

    def to_dict(self) -> dict:
        return {"blocks": [b.to_dict() for b in self.blocks], "random_seed": self.random_seed}

    def to_json(self) -> str:
        """The Program as minipaddle's JSON text (static/serialize.py, one op per line): what a student reads.
        Model files are Paddle's ProgramDesc protobuf (static/pdmodel.py); this is the readable form of the same
        Program, and paddle.static.deserialize_program reads it back."""
        from minipaddle.static.serialize import program_to_bytes  # (serialize imports this module)

        return program_to_bytes(self).decode("utf-8")


def _drop_unused_vars(program: Program) -> None:
    """After removing ops: drop variables that no op reads or writes (data and parameters stay)."""
    for b in program.blocks:
        used = {n for op in b.ops for n in op.input_names() + op.output_names()}
        for name in list(b.vars):
            v = b.vars[name]
            if name not in used and not v.is_data and not v.persistable:
                del b.vars[name]


# ---- the default programs --------------------------------------------------------------------------------------


def default_main_program() -> Program:
    """The Program that static-mode ops are appended to, unless `program_guard` says otherwise."""
    if STATE.main_program is None:
        STATE.main_program = Program()
    return STATE.main_program


def default_startup_program() -> Program:
    """The Program that holds the parameter initializers; run it once before training."""
    if STATE.startup_program is None:
        STATE.startup_program = Program()
    return STATE.startup_program


@contextlib.contextmanager
def program_guard(main_program: Program, startup_program: Program | None = None):
    """Build into `main_program` (and put initializers into `startup_program`) inside the `with`."""
    if not isinstance(main_program, Program):
        raise TypeError(f"program_guard: main_program must be a Program, got {type(main_program).__name__}")
    if startup_program is not None and not isinstance(startup_program, Program):
        raise TypeError(f"program_guard: startup_program must be a Program, got {type(startup_program).__name__}")
    prev = (STATE.main_program, STATE.startup_program)
    STATE.main_program = main_program
    if startup_program is not None:
        STATE.startup_program = startup_program
    try:
        yield
    finally:
        STATE.main_program, STATE.startup_program = prev


@contextlib.contextmanager
def name_scope(prefix: str | None = None):
    """Group the ops built inside under `prefix` (recorded as their scope, like a Layer path)."""
    with layer_scope(f"{STATE.scope}/{prefix}" if STATE.scope and prefix else (prefix or STATE.scope)):
        yield
