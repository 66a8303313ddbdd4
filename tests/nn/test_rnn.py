"""RNN cells and networks, MultiHeadAttention and the Transformer layers: names, initializers, the meaning of
sequence_length / time_major / direction / caches / masks, and argument checking. (Numbers against Paddle 2.6 are
in test_layer_golden.py.)"""

from __future__ import annotations

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle import nn


def test_lstm_parameters_are_named_as_in_paddle():
    lstm = nn.LSTM(3, 4, num_layers=2, direction="bidirect")
    names = [(n, p.shape) for n, p in lstm.named_parameters()]
    assert names[:5] == [("weight_ih_l0", [16, 3]), ("weight_hh_l0", [16, 4]), ("bias_ih_l0", [16]),
                         ("bias_hh_l0", [16]), ("weight_ih_l0_reverse", [16, 3])]  # fmt: skip
    assert ("weight_ih_l1", [16, 8]) in names and len(names) == 16
    assert lstm.weight_ih_l0 is lstm[0].cell_fw.weight_ih  # the same Parameter under two names
    assert "0.cell_fw.weight_ih" in lstm.state_dict()
    assert nn.GRU(3, 5).weight_hh_l0.shape == [15, 5]
    assert nn.SimpleRNN(3, 5).weight_ih_l0.shape == [5, 3]


def test_cell_weights_start_uniform_in_one_over_sqrt_hidden():
    paddle.seed(3)
    cell = nn.LSTMCell(50, 100)
    for p in cell.parameters():
        values = p.numpy()
        assert np.abs(values).max() <= 0.1 and np.abs(values).max() > 0.09
    assert nn.GRUCell(2, 3, bias_ih_attr=False).bias_ih is None


def test_gru_cell_by_hand():
    cell = nn.GRUCell(2, 3)
    x, h = paddle.rand([4, 2]), paddle.rand([4, 3])
    out, new_h = cell(x, h)
    xg = x.numpy() @ cell.weight_ih.numpy().T + cell.bias_ih.numpy()
    hg = h.numpy() @ cell.weight_hh.numpy().T + cell.bias_hh.numpy()
    sig = lambda v: 1 / (1 + np.exp(-v))
    r, z = sig(xg[:, :3] + hg[:, :3]), sig(xg[:, 3:6] + hg[:, 3:6])
    c = np.tanh(xg[:, 6:] + r * hg[:, 6:])
    np.testing.assert_allclose(new_h.numpy(), (h.numpy() - c) * z + c, rtol=1e-5)
    assert out is new_h


def test_time_major_is_a_transpose():
    lstm = nn.LSTM(3, 4)
    tm = nn.LSTM(3, 4, time_major=True)
    tm.set_state_dict(lstm.state_dict())
    x = paddle.rand([2, 5, 3])
    y, (h, c) = lstm(x)
    y2, (h2, c2) = tm(paddle.transpose(x, [1, 0, 2]))
    np.testing.assert_allclose(paddle.transpose(y2, [1, 0, 2]).numpy(), y.numpy(), rtol=1e-6)
    np.testing.assert_allclose(h2.numpy(), h.numpy(), rtol=1e-6)


def test_sequence_length_stops_each_sample_at_its_length():
    gru = nn.GRU(3, 4)
    x = paddle.rand([2, 6, 3])
    y, h = gru(x, sequence_length=paddle.to_tensor([6, 3]))
    _, h_short = gru(x[1:2, :3])
    np.testing.assert_allclose(h.numpy()[0, 1], h_short.numpy()[0, 0], rtol=1e-6)
    assert not y.numpy()[1, 3:].any()  # outputs past the length are zero


def test_reverse_direction_reads_the_sequence_backwards():
    cell = nn.SimpleRNNCell(2, 3)
    x = paddle.rand([1, 4, 2])
    y_rev, h_rev = nn.RNN(cell, is_reverse=True)(x)
    y_fwd, h_fwd = nn.RNN(cell)(paddle.flip(x, [1]))
    np.testing.assert_allclose(h_rev.numpy(), h_fwd.numpy(), rtol=1e-6)
    np.testing.assert_allclose(y_rev.numpy(), paddle.flip(y_fwd, [1]).numpy(), rtol=1e-6)


def test_bidirectional_concatenates_both_directions():
    gru = nn.GRU(3, 4, direction="bidirectional")
    y, h = gru(paddle.rand([2, 5, 3]))
    assert y.shape == [2, 5, 8] and h.shape == [2, 2, 4]
    np.testing.assert_allclose(y.numpy()[:, -1, :4], h.numpy()[0], rtol=1e-6)  # forward's last output
    np.testing.assert_allclose(y.numpy()[:, 0, 4:], h.numpy()[1], rtol=1e-6)  # backward's last output is at t=0


def test_dropout_between_layers_only_while_training():
    paddle.seed(0)
    lstm = nn.LSTM(3, 8, num_layers=2, dropout=0.5)
    x = paddle.rand([2, 4, 3])
    lstm.eval()
    np.testing.assert_array_equal(lstm(x)[0].numpy(), lstm(x)[0].numpy())
    lstm.train()
    assert not np.allclose(lstm(x)[0].numpy(), lstm(x)[0].numpy())


def test_gradients_flow_through_time():
    lstm = nn.LSTM(2, 3)
    x = paddle.rand([2, 6, 2])
    x.stop_gradient = False
    y, _ = lstm(x)
    y[:, -1].sum().backward()
    assert np.abs(x.grad.numpy()[:, 0]).sum() > 0  # the first step influences the last output
    assert lstm.weight_hh_l0.grad is not None


@pytest.mark.parametrize(
    "call,error,words",
    [
        (lambda: nn.LSTM(3, 4, direction="backward"), ValueError, "direction"),
        (lambda: nn.GRU(3, 4, num_layers=0), ValueError, "num_layers"),
        (lambda: nn.SimpleRNNCell(3, 4, activation="sigmoid"), ValueError, "activation"),
        (lambda: nn.LSTM(3, 4)(paddle.rand([2, 5, 2])), ValueError, "input"),
        (lambda: nn.GRUCell(3, 4)(paddle.rand([2, 5])), ValueError, "inputs must have shape"),
        (lambda: nn.MultiHeadAttention(10, 3), ValueError, "multiple of num_heads"),
    ],
)
def test_bad_arguments(call, error, words):
    with pytest.raises(error, match=words):
        call()


# ---- attention --------------------------------------------------------------------------------------------------


def test_attention_weights_are_a_distribution_and_masks_hide_positions():
    mha = nn.MultiHeadAttention(8, 2, need_weights=True)
    q, kv = paddle.rand([2, 3, 8]), paddle.rand([2, 5, 8])
    visible = np.ones((2, 1, 1, 5), dtype=bool)
    visible[..., 3:] = False
    out, weights = mha(q, kv, kv, attn_mask=paddle.to_tensor(visible))
    assert out.shape == [2, 3, 8] and weights.shape == [2, 2, 3, 5]
    np.testing.assert_allclose(weights.numpy().sum(-1), 1, rtol=1e-6)
    assert weights.numpy()[..., 3:].max() < 1e-6


def test_incremental_cache_gives_the_causal_result():
    paddle.seed(0)
    layer = nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0)
    tgt, memory = paddle.rand([1, 4, 8]), paddle.rand([1, 3, 8])
    full = layer(tgt, memory, tgt_mask=nn.Transformer.generate_square_subsequent_mask(None, 4))
    cache = layer.gen_cache(memory)
    steps = []
    for t in range(4):
        out, cache = layer(tgt[:, t : t + 1], memory, cache=cache)
        steps.append(out.numpy())
    np.testing.assert_allclose(np.concatenate(steps, axis=1), full.numpy(), rtol=1e-5, atol=1e-6)


def test_square_subsequent_mask():
    mask = nn.Transformer(8, 2, 1, 1, 16).generate_square_subsequent_mask(3).numpy()
    assert mask.shape == (3, 3) and mask.dtype == np.float32
    assert np.isneginf(mask[0, 1]) and mask[1, 0] == 0 and mask[2, 2] == 0


def test_encoder_layers_are_independent_copies():
    layer = nn.TransformerEncoderLayer(8, 2, 16)
    encoder = nn.TransformerEncoder(layer, 3)
    assert encoder.layers[0] is layer
    assert encoder.layers[1].linear1.weight is not layer.linear1.weight
    assert len(encoder.parameters()) == 3 * len(layer.parameters())
    model = nn.Transformer(8, 2, 2, 1, 16)
    names = [n for n, _ in model.named_parameters()]
    assert names[0] == "encoder.layers.0.self_attn.q_proj.weight" and names[-1] == "decoder.norm.bias"
    assert sum(p.size for p in model.parameters()) == 2 * 600 + 16 + 904 + 16  # as Paddle counts it
