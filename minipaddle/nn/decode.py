"""Decoding with an RNN cell, step by step: the Decoder interface, beam search (BeamSearchDecoder) and the loop
that runs a decoder until every sequence has finished (dynamic_decode), as paddle 2.6's paddle.nn.decode.

Beam search keeps `beam_size` hypotheses per batch entry. At each step every hypothesis is extended by every
token; the extensions are scored by their total log-probability, and the best `beam_size` of the
beam_size * vocab_size candidates survive. A hypothesis that has produced `end_token` is finished: from then on it
can only be extended by end_token again, at no cost, so it keeps its score. At the end, the surviving beams are
traced back through their parents (F.gather_tree) into whole sequences.

Everything is composed from minipaddle's public functions (no op of its own). Dynamic mode only.
"""

from __future__ import annotations

import collections
import numbers

import numpy as np

from minipaddle import ops
from minipaddle.core.state import STATE
from minipaddle.nn.functional.sequence import gather_tree
from minipaddle.tensor.creation import arange, full, to_tensor, zeros_like
from minipaddle.tensor.indexing import gather_nd
from minipaddle.tensor.logic import logical_not
from minipaddle.tensor.manipulation import cast, reshape, stack, tile, transpose, unsqueeze
from minipaddle.tensor.math import floor_divide, remainder
from minipaddle.tensor.search import topk

__all__ = ["BeamSearchDecoder", "dynamic_decode"]

_KINF = 1e9  # the "minus infinity" log-probability of impossible beams and tokens, as Paddle


def _map_structure(fn, *structures):
    """fn applied leaf by leaf over nested lists, tuples, namedtuples and dicts of Tensors (paddle.utils's)."""
    first = structures[0]
    if isinstance(first, dict):
        return {k: _map_structure(fn, *(s[k] for s in structures)) for k in first}
    if isinstance(first, tuple) and hasattr(first, "_fields"):  # a namedtuple keeps its type
        return type(first)(*(_map_structure(fn, *parts) for parts in zip(*structures)))
    if isinstance(first, (list, tuple)):
        return type(first)(_map_structure(fn, *parts) for parts in zip(*structures))
    return fn(*structures)


def _first_leaf(structure):
    while isinstance(structure, (list, tuple, dict)):
        structure = next(iter(structure.values())) if isinstance(structure, dict) else structure[0]
    return structure


class Decoder:
    """The interface dynamic_decode drives: `initialize(inits)` gives (initial inputs, initial states, finished);
    `step(time, inputs, states, **kwargs)` gives (outputs, next states, next inputs, finished); `finalize(outputs,
    final_states, sequence_lengths)` may rework the stacked outputs; `tracks_own_finished` says whether the
    decoder keeps finished sequences as they are by itself (beam search does)."""

    def initialize(self, inits):
        raise TypeError(f"{type(self).__name__} must define initialize(inits)")

    def step(self, time, inputs, states, **kwargs):
        raise TypeError(f"{type(self).__name__} must define step(time, inputs, states, **kwargs)")

    def finalize(self, outputs, final_states, sequence_lengths):
        return outputs, final_states

    @property
    def tracks_own_finished(self) -> bool:
        return False


class BeamSearchDecoder(Decoder):
    """Beam search over an RNN cell, for dynamic_decode.

    Args:
        cell (RNNCellBase): the cell (or any callable `cell(inputs, states) -> (outputs, new_states)`).
        start_token (int): the id every sequence starts from.
        end_token (int): the id that ends a sequence.
        beam_size (int): how many hypotheses are kept per batch entry.
        embedding_fn (callable, optional): maps ids [batch, beam] to the cell's inputs (an Embedding layer); without
            it the cell gets the ids.
        output_fn (callable, optional): maps the cell's outputs to logits over the vocabulary (a Linear layer).

    dynamic_decode's outputs are then (predicted_ids [batch, time, beam], final states); the states are a
    BeamSearchDecoder.StateWrapper(cell_states, log_probs, finished, lengths).

    Example:
        >>> cell = paddle.nn.GRUCell(8, 16)
        >>> decoder = paddle.nn.BeamSearchDecoder(cell, start_token=0, end_token=1, beam_size=4,
        ...     embedding_fn=paddle.nn.Embedding(10, 8), output_fn=paddle.nn.Linear(16, 10))
        >>> ids, states = paddle.nn.dynamic_decode(decoder, inits=cell.get_initial_states(paddle.zeros([2, 16])),
        ...     max_step_num=5)
        >>> ids.shape[0], ids.shape[2]   # [batch, steps (at most max_step_num + 1), beam]
        (2, 4)
    """

    OutputWrapper = collections.namedtuple("OutputWrapper", ("scores", "predicted_ids", "parent_ids"))
    StateWrapper = collections.namedtuple("StateWrapper", ("cell_states", "log_probs", "finished", "lengths"))

    def __init__(self, cell, start_token, end_token, beam_size, embedding_fn=None, output_fn=None) -> None:
        fn = "BeamSearchDecoder"
        for value, arg in ((start_token, "start_token"), (end_token, "end_token"), (beam_size, "beam_size")):
            if not isinstance(value, numbers.Integral) or isinstance(value, bool):
                raise TypeError(f"{fn}: {arg} must be an int, got {type(value).__name__}")
        if beam_size <= 0:
            raise ValueError(f"{fn}: beam_size must be positive, got {beam_size}")
        if not callable(cell):
            raise TypeError(f"{fn}: cell must be an RNN cell (a callable), got {type(cell).__name__}")
        self.cell, self.embedding_fn, self.output_fn = cell, embedding_fn, output_fn
        self.start_token, self.end_token, self.beam_size = int(start_token), int(end_token), int(beam_size)

    # ---- reshaping between [batch, beam, ...] and [batch * beam, ...] ----

    @staticmethod
    def tile_beam_merge_with_batch(x, beam_size):
        """x [batch, ...] repeated beam_size times per entry: [batch * beam_size, ...] (entry b at rows b*beam...)."""
        x = unsqueeze(x, [1])
        repeats = [1] * x.ndim
        repeats[1] = beam_size
        return reshape(tile(x, repeats), [-1, *x.shape[2:]])

    def _split_batch_beams(self, x):
        return reshape(x, [-1, self.beam_size, *x.shape[1:]])

    def _merge_batch_beams(self, x):
        return reshape(x, [-1, *x.shape[2:]])

    def _expand_to_beam_size(self, x):
        x = unsqueeze(x, [1])
        repeats = [1] * x.ndim
        repeats[1] = self.beam_size
        return tile(x, repeats)

    def _gather(self, x, indices, batch_size):
        """x[b, indices[b, k]] for every batch entry b and beam k: [batch, beam, ...]."""
        batch_pos = tile(unsqueeze(arange(0, batch_size, 1, dtype=indices.dtype), [1]), [1, self.beam_size])
        return gather_nd(x, stack([batch_pos, indices], axis=2))

    def _mask_probs(self, probs, finished):
        """A finished beam's next-token log-probabilities become 0 for end_token and -1e9 for the others."""
        finished = cast(finished, probs.dtype)
        return ops.subtract(
            ops.multiply(tile(unsqueeze(finished, [2]), [1, 1, self.vocab_size]), self.noend_mask_tensor),
            ops.multiply(probs, unsqueeze(ops.subtract(finished, to_tensor(1.0, probs.dtype)), [2])),
        )

    # ---- the Decoder interface ----

    def initialize(self, initial_cell_states):
        """(start-token inputs [batch, beam], StateWrapper, finished [batch, beam]); only beam 0 is alive at first."""
        state = _first_leaf(initial_cell_states)
        self.batch_size = state.shape[0]
        dtype = "float64" if str(STATE.default_dtype) == "float64" else "float32"
        init_cell_states = _map_structure(self._expand_to_beam_size, initial_cell_states)
        init_inputs = full([self.batch_size, self.beam_size], self.start_token, dtype="int64")
        first_beam_only = np.array([[0.0] + [-_KINF] * (self.beam_size - 1)], dtype="float32")
        log_probs = cast(tile(to_tensor(first_beam_only), [self.batch_size, 1]), dtype)
        init_finished = full([self.batch_size, self.beam_size], False, dtype="bool")
        init_lengths = zeros_like(init_inputs)
        if self.embedding_fn is not None:
            init_inputs = self.embedding_fn(init_inputs)
        return init_inputs, self.StateWrapper(init_cell_states, log_probs, init_finished, init_lengths), init_finished

    def _beam_search_step(self, time, logits, next_cell_states, beam_state):
        """Score every (beam, token) extension, keep the best beam_size, and carry the states of their parents."""
        self.vocab_size = logits.shape[-1]
        noend = np.full(self.vocab_size, -_KINF, dtype="float32")
        noend[self.end_token] = 0
        self.noend_mask_tensor = cast(to_tensor(noend), beam_state.log_probs.dtype)

        step_log_probs = ops.log(ops.softmax(logits, -1))
        step_log_probs = self._mask_probs(step_log_probs, beam_state.finished)
        log_probs = ops.add(step_log_probs, unsqueeze(beam_state.log_probs, [2]))
        flat = reshape(log_probs, [-1, self.beam_size * self.vocab_size])
        topk_scores, topk_indices = topk(flat, k=self.beam_size)
        vocab = full([1], self.vocab_size, dtype="int64")
        beam_indices = floor_divide(topk_indices, vocab)
        token_indices = remainder(topk_indices, vocab)

        next_log_probs = self._gather(flat, topk_indices, self.batch_size)
        next_cell_states = _map_structure(lambda x: self._gather(x, beam_indices, self.batch_size), next_cell_states)
        next_finished = self._gather(beam_state.finished, beam_indices, self.batch_size)
        next_lengths = self._gather(beam_state.lengths, beam_indices, self.batch_size)
        next_lengths = ops.add(next_lengths, cast(logical_not(next_finished), beam_state.lengths.dtype))
        next_finished = ops.logical_or(next_finished, ops.equal(token_indices, full([1], self.end_token, "int64")))
        return (
            self.OutputWrapper(topk_scores, token_indices, beam_indices),
            self.StateWrapper(next_cell_states, next_log_probs, next_finished, next_lengths),
        )

    def step(self, time, inputs, states, **kwargs):
        """One step of the cell on every beam, then the beam search: (OutputWrapper, StateWrapper, next inputs,
        finished)."""
        inputs = _map_structure(self._merge_batch_beams, inputs)
        cell_states = _map_structure(self._merge_batch_beams, states.cell_states)
        cell_outputs, next_cell_states = self.cell(inputs, cell_states, **kwargs)
        cell_outputs = _map_structure(self._split_batch_beams, cell_outputs)
        next_cell_states = _map_structure(self._split_batch_beams, next_cell_states)
        if self.output_fn is not None:
            cell_outputs = self.output_fn(cell_outputs)
        output, state = self._beam_search_step(time, cell_outputs, next_cell_states, states)
        sample_ids = output.predicted_ids
        sample_ids.stop_gradient = True
        next_inputs = self.embedding_fn(sample_ids) if self.embedding_fn else sample_ids
        return output, state, next_inputs, state.finished

    def finalize(self, outputs, final_states, sequence_lengths):
        """The whole sequences [time, batch, beam], traced back from the last step through the parent beams."""
        return gather_tree(outputs.predicted_ids, outputs.parent_ids), final_states

    @property
    def tracks_own_finished(self) -> bool:
        return True


def _maybe_copy(state, new_state, step_mask):
    """new_state where step_mask is 0, the old state where it is 1 (finished sequences keep their states)."""
    state_dtype = state.dtype
    if state_dtype.name == "bool":
        state, new_state = cast(state, "float32"), cast(new_state, "float32")
    step_mask = unsqueeze(cast(step_mask, state.dtype), [1])
    one = to_tensor(1.0, state.dtype)
    kept = ops.subtract(ops.multiply(state, step_mask), ops.multiply(new_state, ops.subtract(step_mask, one)))
    return cast(kept, state_dtype) if state_dtype.name == "bool" else kept


def dynamic_decode(decoder, inits=None, max_step_num=None, output_time_major=False, impute_finished=False,
                   is_test=False, return_length=False, **kwargs):  # fmt: skip
    """Run `decoder` step by step until every sequence has finished, or for at most max_step_num + 1 steps.

    Args:
        decoder (Decoder): a BeamSearchDecoder or another Decoder.
        inits: the initial states given to decoder.initialize (the cell's initial states).
        max_step_num (int, optional): stop after step max_step_num (so at most max_step_num + 1 steps); None means
            until every sequence has finished.
        output_time_major (bool): outputs [time, batch, ...] if True, else [batch, time, ...] (default).
        impute_finished (bool): for a decoder that does not track its own finished sequences, keep a finished
            sequence's states unchanged.
        is_test (bool): Paddle's memory hint; changes nothing here.
        return_length (bool): also return the sequence lengths.
        **kwargs: passed to decoder.step (and so to the cell).

    Returns:
        (final_outputs, final_states), plus sequence_lengths [batch, ...] (int64) when return_length is True.
        For BeamSearchDecoder, final_outputs are the predicted ids [batch, time, beam].

    Example:
        >>> cell = paddle.nn.GRUCell(8, 16)
        >>> decoder = paddle.nn.BeamSearchDecoder(cell, 0, 1, beam_size=2, embedding_fn=paddle.nn.Embedding(10, 8),
        ...     output_fn=paddle.nn.Linear(16, 10))
        >>> ids, states, lengths = paddle.nn.dynamic_decode(decoder, cell.get_initial_states(paddle.zeros([3, 16])),
        ...     max_step_num=4, return_length=True)
    """
    fn = "dynamic_decode"
    if STATE.static_mode:
        raise RuntimeError(f"{fn}: only dynamic mode is supported; call paddle.disable_static() first")
    if not isinstance(decoder, Decoder):
        raise TypeError(f"{fn}: decoder must be a paddle.nn decoder (BeamSearchDecoder), got {type(decoder).__name__}")
    if max_step_num is not None and (not isinstance(max_step_num, numbers.Integral) or isinstance(max_step_num, bool)):
        raise TypeError(f"{fn}: max_step_num must be an int or None, got {type(max_step_num).__name__}")

    inputs, states, finished = decoder.initialize(inits)
    sequence_lengths = cast(zeros_like(finished), "int64")
    steps = []
    step_idx = 0
    while not bool(finished.all()):
        time = full([1], step_idx, dtype="int64")
        step_outputs, next_states, next_inputs, next_finished = decoder.step(time, inputs, states, **kwargs)
        if not decoder.tracks_own_finished:
            # as Paddle, which updates `finished` in place first: the lengths and the kept states go by the
            # finished flags after this step
            next_finished = ops.logical_or(next_finished, finished)
            next_sequence_lengths = ops.add(sequence_lengths, cast(logical_not(next_finished), sequence_lengths.dtype))
            if impute_finished:
                next_states = _map_structure(lambda x, y, m=next_finished: _maybe_copy(x, y, m), states, next_states)
        else:
            next_sequence_lengths = getattr(next_states, "lengths", sequence_lengths)
        steps.append(step_outputs)
        inputs, states, finished, sequence_lengths = next_inputs, next_states, next_finished, next_sequence_lengths
        step_idx += 1
        if max_step_num is not None and step_idx > max_step_num:
            break

    final_outputs = _map_structure(lambda *per_step: stack(list(per_step), axis=0), *steps)
    final_outputs, final_states = decoder.finalize(final_outputs, states, sequence_lengths)
    if not output_time_major:
        final_outputs = _map_structure(lambda x: transpose(x, [1, 0, *range(2, x.ndim)]), final_outputs)
    if return_length:
        return final_outputs, final_states, sequence_lengths
    return final_outputs, final_states
