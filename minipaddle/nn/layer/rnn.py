"""Recurrent layers: the cells (SimpleRNNCell, LSTMCell, GRUCell), the wrappers that run a cell over time (RNN,
BiRNN), and the multi-layer networks (SimpleRNN, LSTM, GRU).

A cell computes one time step from its input and its previous state; RNN loops it over the time axis (a Python
loop over steps, each step one batch of matrix products). Everything is composed from minipaddle ops, so autograd
gives backpropagation through time for free.

Layouts and names follow Paddle 2.6 exactly, so weights copy over from Paddle: weight_ih [gates*hidden, input],
weight_hh [gates*hidden, hidden], gates stacked as (i, f, g, o) for LSTM and (r, z, c) for GRU; the networks expose
their cells' parameters as weight_ih_l0, weight_hh_l0, bias_ih_l0, bias_hh_l0, weight_ih_l0_reverse, ...
Every weight and bias starts Uniform(-1/sqrt(hidden_size), 1/sqrt(hidden_size)).
"""

from __future__ import annotations

import math

import numpy as np

from minipaddle import ops
from minipaddle.core.state import STATE
from minipaddle.core.tensor import Tensor
from minipaddle.nn import functional as F
from minipaddle.nn.initializer import Uniform
from minipaddle.nn.layer.container import LayerList
from minipaddle.nn.layer.layers import Layer
from minipaddle.tensor.checks import MAX_ELEMENTS, check_probability, check_tensor

__all__ = ["RNNCellBase", "SimpleRNNCell", "LSTMCell", "GRUCell", "RNN", "BiRNN", "SimpleRNN", "LSTM", "GRU"]


# ---- cells -----------------------------------------------------------------------------------------------------------


class RNNCellBase(Layer):
    """Base class of the cells: a cell maps (inputs [batch, input_size], states) to (outputs, new_states).

    `state_shape` gives the shape of one sample's state (a tuple of shapes for several states, as LSTM's (h, c)).
    """

    def get_initial_states(self, batch_ref, shape=None, dtype=None, init_value=0.0, batch_dim_idx=0):
        """States filled with init_value, with the batch size taken from batch_ref's axis batch_dim_idx."""
        batch = batch_ref.shape[batch_dim_idx]
        shape = self.state_shape if shape is None else shape
        dtype = batch_ref.dtype if dtype is None else dtype

        def make(s):
            if isinstance(s, (list, tuple)) and s and isinstance(s[0], (list, tuple)):
                return tuple(make(e) for e in s)
            if STATE.static_mode:  # the batch is known only when the Program runs: states shaped by batch_ref
                return _full_batch_like(batch_ref, batch_dim_idx, list(s), init_value, dtype)
            return Tensor(np.full((batch, *s), init_value, dtype=getattr(dtype, "np", dtype)))

        return make(shape)

    @property
    def state_shape(self):
        raise TypeError(f"{type(self).__name__} does not say its state_shape")

    def _make_parameters(self, input_size, hidden_size, gates, weight_ih_attr, weight_hh_attr, bias_ih_attr,
                         bias_hh_attr) -> None:  # fmt: skip
        fn = type(self).__name__
        for arg, value in (("hidden_size", hidden_size), ("input_size", input_size)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{fn}: {arg} must be a positive int, got {type(value).__name__}")
            if value <= 0:
                raise ValueError(f"{fn}: {arg} must be a positive int, got {value!r}")
        self.input_size, self.hidden_size = input_size, hidden_size
        init = Uniform(-1.0 / math.sqrt(hidden_size), 1.0 / math.sqrt(hidden_size))
        rows = gates * hidden_size
        self.weight_ih = self.create_parameter([rows, input_size], weight_ih_attr, default_initializer=init)
        self.weight_hh = self.create_parameter([rows, hidden_size], weight_hh_attr, default_initializer=init)
        self.bias_ih = self.create_parameter([rows], bias_ih_attr, is_bias=True, default_initializer=init)
        self.bias_hh = self.create_parameter([rows], bias_hh_attr, is_bias=True, default_initializer=init)

    def _affine(self, x, weight, bias):
        """x @ weight^T + bias (bias may be absent)."""
        y = ops.matmul(x, weight, transpose_y=True)
        return y if bias is None else ops.add(y, bias)

    def _checked_states(self, inputs, states):
        """Check inputs [batch, input_size]; return states, or zero initial states when they are None."""
        check_tensor(inputs, type(self).__name__, "inputs")
        if inputs.ndim != 2 or inputs.shape[-1] != self.input_size:
            raise ValueError(f"{type(self).__name__}: inputs must have shape [batch, {self.input_size}], got "
                             f"{inputs.shape}")  # fmt: skip
        return self.get_initial_states(inputs) if states is None else states

    def extra_repr(self) -> str:
        return f"{self.input_size}, {self.hidden_size}"


class SimpleRNNCell(RNNCellBase):
    """h = activation(x @ weight_ih^T + bias_ih + h_prev @ weight_hh^T + bias_hh); returns (h, h).

    Args:
        input_size, hidden_size: feature sizes of the input and of the state.
        activation: 'tanh' (default) or 'relu'.
        weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr: ParamAttr (False: no such bias).

    Example:
        >>> cell = paddle.nn.SimpleRNNCell(4, 8)
        >>> y, h = cell(paddle.rand([2, 4]))
        >>> y.shape
        [2, 8]
    """

    def __init__(self, input_size, hidden_size, activation="tanh", weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, name=None):  # fmt: skip
        super().__init__()
        if activation not in ("tanh", "relu"):
            raise ValueError(f"SimpleRNNCell: activation must be 'tanh' or 'relu', got {activation!r}")
        self.activation = activation
        self._make_parameters(input_size, hidden_size, 1, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)

    @property
    def state_shape(self):
        return (self.hidden_size,)

    def forward(self, inputs, states=None):
        states = self._checked_states(inputs, states)
        pre = ops.add(self._affine(inputs, self.weight_ih, self.bias_ih), self._affine(states, self.weight_hh,
                                                                                      self.bias_hh))  # fmt: skip
        h = ops.tanh(pre) if self.activation == "tanh" else ops.relu(pre)
        return h, h

    def extra_repr(self) -> str:
        act = f", activation={self.activation}" if self.activation != "tanh" else ""
        return f"{self.input_size}, {self.hidden_size}{act}"


class _GatedCell(RNNCellBase):
    """LSTMCell and GRUCell: Paddle's constructor for both, with `gates` blocks of hidden_size rows stacked in
    each weight and bias."""

    gates = 0

    def __init__(self, input_size, hidden_size, weight_ih_attr=None, weight_hh_attr=None, bias_ih_attr=None,
                 bias_hh_attr=None, name=None):  # fmt: skip
        super().__init__()
        self._make_parameters(input_size, hidden_size, self.gates, weight_ih_attr, weight_hh_attr, bias_ih_attr,
                              bias_hh_attr)  # fmt: skip


class LSTMCell(_GatedCell):
    """Long short-term memory cell. With gates = x @ weight_ih^T + bias_ih + h_prev @ weight_hh^T + bias_hh split
    into (i, f, g, o):

        c = sigmoid(f) * c_prev + sigmoid(i) * tanh(g)
        h = sigmoid(o) * tanh(c)

    forward(inputs, states=(h_prev, c_prev)) returns (h, (h, c)).

    Example:
        >>> cell = paddle.nn.LSTMCell(4, 8)
        >>> y, (h, c) = cell(paddle.rand([2, 4]))
        >>> c.shape
        [2, 8]
    """

    gates = 4  # i, f, g, o

    @property
    def state_shape(self):
        return ((self.hidden_size,), (self.hidden_size,))

    def forward(self, inputs, states=None):
        states = self._checked_states(inputs, states)
        h_prev, c_prev = states
        gates = ops.add(self._affine(inputs, self.weight_ih, self.bias_ih), self._affine(h_prev, self.weight_hh,
                                                                                        self.bias_hh))  # fmt: skip
        i, f, g, o = ops.split(gates, (self.hidden_size,) * 4, gates.ndim - 1)
        c = ops.add(ops.multiply(ops.sigmoid(f), c_prev), ops.multiply(ops.sigmoid(i), ops.tanh(g)))
        h = ops.multiply(ops.sigmoid(o), ops.tanh(c))
        return h, (h, c)


class GRUCell(_GatedCell):
    """Gated recurrent unit. With x_r, x_z, x_c = split(x @ weight_ih^T + bias_ih) and h_r, h_z, h_c likewise from
    h_prev and weight_hh:

        r = sigmoid(x_r + h_r),  z = sigmoid(x_z + h_z),  c = tanh(x_c + r * h_c)
        h = (h_prev - c) * z + c

    forward(inputs, states=h_prev) returns (h, h).

    Example:
        >>> cell = paddle.nn.GRUCell(4, 8)
        >>> y, h = cell(paddle.rand([2, 4]))
        >>> h.shape
        [2, 8]
    """

    gates = 3  # r, z, c

    @property
    def state_shape(self):
        return (self.hidden_size,)

    def forward(self, inputs, states=None):
        states = self._checked_states(inputs, states)
        sizes, last = (self.hidden_size,) * 3, inputs.ndim - 1
        x_r, x_z, x_c = ops.split(self._affine(inputs, self.weight_ih, self.bias_ih), sizes, last)
        h_r, h_z, h_c = ops.split(self._affine(states, self.weight_hh, self.bias_hh), sizes, last)
        r = ops.sigmoid(ops.add(x_r, h_r))
        z = ops.sigmoid(ops.add(x_z, h_z))
        c = ops.tanh(ops.add(x_c, ops.multiply(r, h_c)))
        h = ops.add(ops.multiply(ops.subtract(states, c), z), c)
        return h, h


# ---- running a cell over time ------------------------------------------------------------------------------------


def _map(fn, *trees):
    """Apply fn leaf by leaf to nested tuples/lists of Tensors (a cell's states)."""
    if isinstance(trees[0], (tuple, list)):
        return tuple(_map(fn, *parts) for parts in zip(*trees))
    return fn(*trees)


def _full_batch_like(batch_ref, batch_dim_idx: int, shape: list, value, dtype):
    """[batch, *shape] filled with `value`, batch taken from batch_ref's axis batch_dim_idx as ops (what Paddle's
    fill_constant_batch_size_like does): batch_ref summed to one value per sample, filled, broadcast against
    `shape` (ops every writer has: Paddle's files and ONNX)."""
    column = ops.sum(batch_ref, axis=tuple(a for a in range(batch_ref.ndim) if a != batch_dim_idx))
    dtype = np.dtype(getattr(dtype, "np", dtype))
    column = ops.reshape(ops.full_like(column, value, dtype), [-1] + [1] * len(shape))
    return ops.add(column, Tensor(np.zeros(shape, dtype=dtype)))


def _step_mask(sequence_length, steps: int, dtype) -> list:
    """One [batch, 1] mask per step: 1 where the step lies within that sample's length (as ops in static mode,
    where the lengths are fed when the Program runs)."""
    if not STATE.static_mode:
        lengths = sequence_length.numpy().reshape(-1, 1)
        return [Tensor((t < lengths).astype(dtype.np)) for t in range(steps)]
    lengths = ops.reshape(sequence_length, [-1, 1])
    return [ops.cast(ops.greater_than(lengths, ops.full_like(lengths, t)), dtype) for t in range(steps)]


def run_cell(cell, inputs, initial_states=None, sequence_length=None, time_major=False, is_reverse=False):
    """(outputs, final_states): `cell` applied at every step of inputs [batch, time, ...] (or [time, batch, ...]).

    With sequence_length, a sample's state stops changing after its last step (its final state is the state at
    its own length) and its outputs past that length are zero. is_reverse runs from the last step to the first."""
    time_axis = 0 if time_major else 1
    steps = inputs.shape[time_axis]
    if initial_states is None:
        initial_states = cell.get_initial_states(inputs, batch_dim_idx=1 - time_axis)
    xs = list(ops.unstack(inputs, time_axis))
    masks = None if sequence_length is None else _step_mask(sequence_length, steps, inputs.dtype)
    order = range(steps - 1, -1, -1) if is_reverse else range(steps)
    states, outputs = initial_states, [None] * steps
    for t in order:
        out, new_states = cell(xs[t], states)
        if masks is not None:  # keep the old state past a sample's length: new * m + old * (1 - m)
            m = masks[t]
            keep = lambda new, old, m=m: ops.add(ops.multiply(new, m), ops.multiply(old, ops.subtract(1.0, m)))
            new_states = _map(keep, new_states, states)
            out = ops.multiply(out, m)
        states, outputs[t] = new_states, out
    return ops.stack(outputs, time_axis), states


def _check_inputs(inputs, time_major: bool, fn: str) -> None:
    """inputs [batch, time, ...] (or [time, batch, ...]) with at least one step: a cell runs once per step."""
    check_tensor(inputs, fn, "inputs")
    if inputs.ndim < 2:
        raise ValueError(f"{fn}: inputs must be [batch, time, ...] (at least 2-D), got shape {inputs.shape}")
    if inputs.shape[0 if time_major else 1] == 0:
        raise ValueError(f"{fn}: inputs have no time steps (shape {inputs.shape})")


class RNN(Layer):
    """Run a cell over the time axis: forward(inputs, initial_states=None, sequence_length=None) returns
    (outputs, final_states), outputs stacked along the time axis.

    Args:
        cell: an RNNCellBase (SimpleRNNCell, LSTMCell, GRUCell or your own).
        is_reverse: run from the last time step to the first.
        time_major: inputs are [time, batch, ...] instead of [batch, time, ...].

    Example:
        >>> rnn = paddle.nn.RNN(paddle.nn.GRUCell(4, 8))
        >>> out, h = rnn(paddle.rand([2, 5, 4]))
        >>> out.shape
        [2, 5, 8]
    """

    def __init__(self, cell, is_reverse=False, time_major=False):
        super().__init__()
        if not isinstance(cell, Layer):
            raise TypeError(f"RNN: cell must be a Layer (an RNN cell), got {type(cell).__name__}")
        self.cell, self.is_reverse, self.time_major = cell, is_reverse, time_major

    def forward(self, inputs, initial_states=None, sequence_length=None, **kwargs):
        _check_inputs(inputs, self.time_major, "RNN")
        return run_cell(self.cell, inputs, initial_states, sequence_length, self.time_major, self.is_reverse)


class BiRNN(Layer):
    """Run one cell forward and another backward over time; outputs are concatenated on the last axis and the
    final states are (forward states, backward states).

    Example:
        >>> birnn = paddle.nn.BiRNN(paddle.nn.LSTMCell(4, 8), paddle.nn.LSTMCell(4, 8))
        >>> out, (fw, bw) = birnn(paddle.rand([2, 5, 4]))
        >>> out.shape
        [2, 5, 16]
    """

    def __init__(self, cell_fw, cell_bw, time_major=False):
        super().__init__()
        for arg, cell in (("cell_fw", cell_fw), ("cell_bw", cell_bw)):
            if not isinstance(cell, Layer):
                raise TypeError(f"BiRNN: {arg} must be a Layer (an RNN cell), got {type(cell).__name__}")
        self.cell_fw, self.cell_bw, self.time_major = cell_fw, cell_bw, time_major

    def forward(self, inputs, initial_states=None, sequence_length=None, **kwargs):
        _check_inputs(inputs, self.time_major, "BiRNN")
        fw_states, bw_states = (None, None) if initial_states is None else initial_states
        out_fw, st_fw = run_cell(self.cell_fw, inputs, fw_states, sequence_length, self.time_major, False)
        out_bw, st_bw = run_cell(self.cell_bw, inputs, bw_states, sequence_length, self.time_major, True)
        return ops.concat([out_fw, out_bw], out_fw.ndim - 1), (st_fw, st_bw)


# ---- multi-layer networks --------------------------------------------------------------------------------------------

_DIRECTIONS = {"forward": 1, "bidirect": 2, "bidirectional": 2}


class _RNNBase(LayerList):
    """num_layers stacked RNN (or BiRNN) layers with dropout between them. States are stacked as
    [num_layers * num_directions, batch, hidden_size] (layer-major, forward before backward)."""

    cell_type = None
    state_count = 1

    def __init__(self, input_size, hidden_size, num_layers=1, direction="forward", time_major=False, dropout=0.0,
                 weight_ih_attr=None, weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None,
                 **cell_kwargs):  # fmt: skip
        super().__init__()
        fn = type(self).__name__
        if direction not in _DIRECTIONS:
            raise ValueError(f"{fn}: direction must be 'forward', 'bidirect' or 'bidirectional', got {direction!r}")
        if isinstance(num_layers, bool) or not isinstance(num_layers, int):
            raise TypeError(f"{fn}: num_layers must be a positive int, got {type(num_layers).__name__}")
        if num_layers < 1:
            raise ValueError(f"{fn}: num_layers must be a positive int, got {num_layers!r}")
        if isinstance(hidden_size, int) and hidden_size > 0 and num_layers * hidden_size**2 > MAX_ELEMENTS:
            raise ValueError(
                f"{fn}: {num_layers} layers of hidden_size {hidden_size} would hold more than "
                f"{MAX_ELEMENTS:.3g} parameters"
            )  # fmt: skip  (before building them one by one)
        self.input_size, self.hidden_size, self.num_layers = input_size, hidden_size, num_layers
        self.direction, self.num_directions = direction, _DIRECTIONS[direction]
        self.time_major, self.dropout = time_major, check_probability(dropout, fn, "dropout")
        attrs = (weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)
        for layer in range(num_layers):
            size = input_size if layer == 0 else hidden_size * self.num_directions
            if self.num_directions == 1:
                self.append(RNN(self.cell_type(size, hidden_size, **cell_kwargs, **_attrs(attrs)),
                                time_major=time_major))  # fmt: skip
            else:
                fw = self.cell_type(size, hidden_size, **cell_kwargs, **_attrs(attrs))
                bw = self.cell_type(size, hidden_size, **cell_kwargs, **_attrs(attrs))
                self.append(BiRNN(fw, bw, time_major))
        # The flat names Paddle gives the same parameters: weight_ih_l0, ..., weight_ih_l0_reverse, ...
        for layer, rnn in enumerate(self):
            cells = [rnn.cell] if self.num_directions == 1 else [rnn.cell_fw, rnn.cell_bw]
            for d, cell in enumerate(cells):
                suffix = f"_l{layer}" + ("_reverse" if d else "")
                for key in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
                    if getattr(cell, key) is not None:
                        self.add_parameter(key + suffix, getattr(cell, key))

    def _split_states(self, states):
        """[layers*dirs, batch, hidden] (a tuple of them for LSTM) -> one state (or (fw, bw) pair) per layer."""
        per_state = [list(ops.unstack(s, 0)) for s in (states if self.state_count > 1 else (states,))]
        out = []
        for layer in range(self.num_layers):
            picks = []
            for d in range(self.num_directions):
                k = layer * self.num_directions + d
                picks.append(tuple(s[k] for s in per_state) if self.state_count > 1 else per_state[0][k])
            out.append(picks[0] if self.num_directions == 1 else tuple(picks))
        return out

    def _concat_states(self, finals):
        flat = []
        for f in finals:
            flat.extend([f] if self.num_directions == 1 else list(f))
        if self.state_count == 1:
            return ops.stack(flat, 0)
        return tuple(ops.stack([f[i] for f in flat], 0) for i in range(self.state_count))

    def forward(self, inputs, initial_states=None, sequence_length=None):
        fn = type(self).__name__
        check_tensor(inputs, fn, "inputs")
        if inputs.ndim != 3 or inputs.shape[-1] != self.input_size:
            raise ValueError(f"{fn}: inputs must have shape [batch, time, {self.input_size}] (time first when "
                             f"time_major), got {inputs.shape}")  # fmt: skip
        states = [None] * self.num_layers if initial_states is None else self._split_states(initial_states)
        if initial_states is None and self.num_directions == 2:
            states = [(None, None)] * self.num_layers
        finals = []
        for layer, rnn in enumerate(self):
            if layer > 0 and self.dropout:
                inputs = F.dropout(inputs, self.dropout, training=self.training, mode="upscale_in_train")
            inputs, final = rnn(inputs, states[layer], sequence_length)
            finals.append(final)
        return inputs, self._concat_states(finals)

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            text += f", num_layers={self.num_layers}"
        if self.time_major:
            text += f", time_major={self.time_major}"
        if self.dropout:
            text += f", dropout={self.dropout}"
        return text


def _attrs(attrs) -> dict:
    keys = ("weight_ih_attr", "weight_hh_attr", "bias_ih_attr", "bias_hh_attr")
    return dict(zip(keys, attrs))


class SimpleRNN(_RNNBase):
    """A stack of num_layers Elman RNN layers (SimpleRNNCell), forward or bidirectional.

    forward(inputs, initial_states=None, sequence_length=None) -> (outputs, final_states):
    inputs [batch, time, input_size] ([time, batch, ...] when time_major); outputs [batch, time,
    num_directions * hidden_size]; states [num_layers * num_directions, batch, hidden_size].

    Args:
        input_size, hidden_size: feature sizes. num_layers: layers stacked. direction: 'forward', 'bidirect' or
        'bidirectional'. time_major: time is axis 0. dropout: applied to the inputs of every layer but the first
        while training. activation: 'tanh' or 'relu'. *_attr: ParamAttr of the cells' parameters.

    Example:
        >>> rnn = paddle.nn.SimpleRNN(16, 32, num_layers=2)
        >>> y, h = rnn(paddle.rand([4, 23, 16]))
        >>> y.shape, h.shape
        ([4, 23, 32], [2, 4, 32])
    """

    cell_type = SimpleRNNCell

    def __init__(self, input_size, hidden_size, num_layers=1, direction="forward", time_major=False, dropout=0.0,
                 activation="tanh", weight_ih_attr=None, weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None,
                 name=None):  # fmt: skip
        super().__init__(input_size, hidden_size, num_layers, direction, time_major, dropout, weight_ih_attr,
                         weight_hh_attr, bias_ih_attr, bias_hh_attr, activation=activation)  # fmt: skip
        self.activation = activation


class LSTM(_RNNBase):
    """A stack of num_layers LSTM layers (LSTMCell), forward or bidirectional.

    forward(inputs, initial_states=None, sequence_length=None) -> (outputs, (h, c)), h and c of shape
    [num_layers * num_directions, batch, hidden_size]. Arguments as SimpleRNN (without activation).

    Example:
        >>> lstm = paddle.nn.LSTM(16, 32, num_layers=2)
        >>> y, (h, c) = lstm(paddle.rand([4, 23, 16]))
        >>> y.shape, h.shape
        ([4, 23, 32], [2, 4, 32])
    """

    cell_type = LSTMCell
    state_count = 2

    def __init__(self, input_size, hidden_size, num_layers=1, direction="forward", time_major=False, dropout=0.0,
                 weight_ih_attr=None, weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None,
                 name=None):  # fmt: skip
        super().__init__(input_size, hidden_size, num_layers, direction, time_major, dropout, weight_ih_attr,
                         weight_hh_attr, bias_ih_attr, bias_hh_attr)  # fmt: skip


class GRU(_RNNBase):
    """A stack of num_layers GRU layers (GRUCell), forward or bidirectional.

    forward(inputs, initial_states=None, sequence_length=None) -> (outputs, h), h of shape
    [num_layers * num_directions, batch, hidden_size]. Arguments as SimpleRNN (without activation).

    Example:
        >>> gru = paddle.nn.GRU(16, 32, direction='bidirect')
        >>> y, h = gru(paddle.rand([4, 23, 16]))
        >>> y.shape, h.shape
        ([4, 23, 64], [2, 4, 32])
    """

    cell_type = GRUCell

    def __init__(self, input_size, hidden_size, num_layers=1, direction="forward", time_major=False, dropout=0.0,
                 weight_ih_attr=None, weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None,
                 name=None):  # fmt: skip
        super().__init__(input_size, hidden_size, num_layers, direction, time_major, dropout, weight_ih_attr,
                         weight_hh_attr, bias_ih_attr, bias_hh_attr)  # fmt: skip
