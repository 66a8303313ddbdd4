"""Attention and the Transformer: MultiHeadAttention, TransformerEncoderLayer / TransformerEncoder,
TransformerDecoderLayer / TransformerDecoder, Transformer.

Written from minipaddle ops and layers (Linear, LayerNorm, Dropout), with Paddle 2.6's signatures, parameter names
(q_proj, k_proj, v_proj, out_proj, linear1, linear2, norm1..3) and order of operations, so that weights copied from
Paddle give Paddle's numbers. Tensors are batch first: [batch, length, d_model].

Attention masks are added to the attention logits: a float mask as it is (use -inf or a large negative number to
hide a position), a bool or int mask converted so that False / 0 hides (Paddle's rule: (mask - 1) * 1e9).
"""

from __future__ import annotations

import collections
import copy

import numpy as np

from minipaddle import ops
from minipaddle.core.dtype import get_default_dtype
from minipaddle.core.tensor import Tensor
from minipaddle.nn import functional as F
from minipaddle.nn.layer.container import LayerList
from minipaddle.nn.layer.dropout import Dropout
from minipaddle.nn.layer.layers import Layer
from minipaddle.nn.layer.linear import Linear
from minipaddle.nn.layer.norm import LayerNorm
from minipaddle.nn.param_attr import ParamAttr
from minipaddle.tensor.checks import MAX_ELEMENTS, check_int, check_probability, check_tensor

__all__ = [
    "MultiHeadAttention",
    "TransformerEncoderLayer",
    "TransformerEncoder",
    "TransformerDecoderLayer",
    "TransformerDecoder",
    "Transformer",
]


def _convert_attention_mask(attn_mask, dtype):
    """A float mask in the logits' dtype; a bool or int mask as 0 where visible and -1e9 where hidden."""
    if attn_mask is None or attn_mask.dtype == dtype:
        return attn_mask
    if attn_mask.dtype.name == "bool" or "int" in attn_mask.dtype.name:
        return ops.scale(ops.subtract(ops.cast(attn_mask, dtype), 1.0), 1e9)
    return ops.cast(attn_mask, dtype)


def _param_attr_list(attr, n: int) -> list:
    """One ParamAttr per sublayer, as Paddle spreads a Transformer layer's weight_attr / bias_attr: a list gives one
    each; a single attr is copied (a named one gets _0, _1, ... so that the names stay unique)."""
    if isinstance(attr, (list, tuple)):
        if len(attr) != n:
            raise ValueError(f"expected {n} ParamAttr, got {len(attr)}")
        return [None if a is True else a for a in attr]
    if isinstance(attr, bool):
        return [None if attr else False] * n
    out = []
    for i in range(n):
        a = copy.deepcopy(attr)
        if isinstance(a, ParamAttr) and a.name:
            a.name = f"{a.name}_{i}"
        out.append(a)
    return out


def _stack(layer, num_layers: int, fn: str, arg: str = "num_layers") -> LayerList:
    """`layer`, then num_layers - 1 fresh layers of its configuration (new parameters, as Paddle makes them)."""
    if not isinstance(layer, Layer) or not hasattr(layer, "_config"):
        raise TypeError(f"{fn}: the layer to repeat must be a Transformer encoder or decoder layer, got "
                        f"{type(layer).__name__}")  # fmt: skip
    num_layers = check_int(num_layers, fn, arg, 1)
    size = sum(p.size for p in layer.parameters())
    if num_layers * size > MAX_ELEMENTS:  # (it would take hours to build, then fail for memory)
        raise ValueError(f"{fn}: {arg} = {num_layers} layers of {size} parameters each is more than the "
                         f"{MAX_ELEMENTS:.3g} elements minipaddle holds")  # fmt: skip
    return LayerList([layer if i == 0 else type(layer)(**layer._config) for i in range(num_layers)])


class MultiHeadAttention(Layer):
    """Attention with num_heads heads: softmax(q k^T / sqrt(head_dim) + attn_mask) v, per head, then projected.

    Args:
        embed_dim: the model width (= num_heads * head_dim). num_heads: how many heads.
        dropout: dropout on the attention weights while training.
        kdim, vdim: feature sizes of key and value (default embed_dim).
        need_weights: also return the attention weights [batch, heads, q_len, k_len].
        weight_attr, bias_attr: ParamAttr of the four projections (q_proj, k_proj, v_proj, out_proj).

    forward(query, key=None, value=None, attn_mask=None, cache=None): key and value default to query. With a
    cache (from gen_cache) the keys and values of earlier steps are reused (Cache: appended to; StaticCache:
    used as they are), and the new cache is returned too.

    Example:
        >>> mha = paddle.nn.MultiHeadAttention(embed_dim=16, num_heads=4)
        >>> x = paddle.rand([2, 5, 16])
        >>> mha(x).shape
        [2, 5, 16]
    """

    Cache = collections.namedtuple("Cache", ["k", "v"])
    StaticCache = collections.namedtuple("StaticCache", ["k", "v"])

    def __init__(self, embed_dim, num_heads, dropout=0.0, kdim=None, vdim=None, need_weights=False, weight_attr=None,
                 bias_attr=None):  # fmt: skip
        super().__init__()
        embed_dim = check_int(embed_dim, "MultiHeadAttention", "embed_dim")
        num_heads = check_int(num_heads, "MultiHeadAttention", "num_heads")
        dropout = check_probability(dropout, "MultiHeadAttention", "dropout")
        if embed_dim <= 0 or num_heads <= 0 or embed_dim % num_heads:
            raise ValueError(f"MultiHeadAttention: embed_dim ({embed_dim}) must be a positive multiple of num_heads "
                             f"({num_heads})")  # fmt: skip
        self.embed_dim, self.num_heads, self.dropout, self.need_weights = embed_dim, num_heads, dropout, need_weights
        self.kdim = embed_dim if kdim is None else kdim
        self.vdim = embed_dim if vdim is None else vdim
        self.head_dim = embed_dim // num_heads
        self.q_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.k_proj = Linear(self.kdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.v_proj = Linear(self.vdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.out_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)

    def _split_heads(self, x):
        """[batch, length, embed_dim] -> [batch, heads, length, head_dim]."""
        x = ops.reshape(x, (x.shape[0], x.shape[1], self.num_heads, self.head_dim))
        return ops.transpose(x, (0, 2, 1, 3))

    def compute_kv(self, key, value):
        """The projected keys and values, split into heads: each [batch, heads, length, head_dim]."""
        return self._split_heads(self.k_proj(key)), self._split_heads(self.v_proj(value))

    def gen_cache(self, key, value=None, type=Cache):  # noqa: A002 (Paddle's name)
        """A StaticCache of key/value projections (for cross attention), an empty Cache (value None: for
        incremental self attention, grown at each call), or a Cache holding key and value as they are."""
        if type is MultiHeadAttention.StaticCache:
            return self.StaticCache(*self.compute_kv(key, value))
        if value is None:
            empty = Tensor(np.zeros((key.shape[0], self.num_heads, 0, self.head_dim), dtype=key.dtype.np))
            return self.Cache(empty, Tensor(empty.numpy().copy()))
        return self.Cache(key, value)

    def forward(self, query, key=None, value=None, attn_mask=None, cache=None):
        check_tensor(query, "MultiHeadAttention", "query")
        key = query if key is None else key
        value = query if value is None else value
        q = self._split_heads(self.q_proj(query))
        if isinstance(cache, self.StaticCache):
            k, v = cache.k, cache.v
        else:
            k, v = self.compute_kv(key, value)
        if isinstance(cache, self.Cache):
            k, v = ops.concat([cache.k, k], 2), ops.concat([cache.v, v], 2)
            cache = self.Cache(k, v)
        logits = ops.matmul(ops.scale(q, self.head_dim**-0.5), k, transpose_y=True)  # [batch, heads, q_len, k_len]
        if attn_mask is not None:
            logits = ops.add(logits, _convert_attention_mask(attn_mask, logits.dtype))
        weights = F.softmax(logits)
        if self.dropout:
            weights = F.dropout(weights, self.dropout, training=self.training, mode="upscale_in_train")
        out = ops.transpose(ops.matmul(weights, v), (0, 2, 1, 3))  # [batch, q_len, heads, head_dim]
        out = self.out_proj(ops.reshape(out, (out.shape[0], out.shape[1], self.embed_dim)))
        outs = [out] + ([weights] if self.need_weights else []) + ([cache] if cache is not None else [])
        return out if len(outs) == 1 else tuple(outs)


class _TransformerLayer(Layer):
    """What encoder and decoder layers share: `attentions` attention sublayers (self_attn, then cross_attn), a
    feed-forward network (linear1, dropout, linear2), one LayerNorm and one Dropout per sublayer (norm1, norm2, ...,
    dropout1, dropout2, ...), created in Paddle's order so that parameter names and initial values match Paddle's.
    Each sublayer is wrapped in a residual connection, with its LayerNorm after the sum (before the sublayer when
    normalize_before=True): `x = self._post(x, sublayer(self._pre(x, norm)), dropout, norm)`."""

    def __init__(self, attentions, d_model, nhead, dim_feedforward, dropout, activation, attn_dropout, act_dropout,
                 normalize_before, weight_attr, bias_attr):  # fmt: skip
        super().__init__()
        self._config = dict(d_model=d_model, nhead=nhead, dim_feedforward=dim_feedforward, dropout=dropout,
                            activation=activation, attn_dropout=attn_dropout, act_dropout=act_dropout,
                            normalize_before=normalize_before, weight_attr=weight_attr,
                            bias_attr=bias_attr)  # fmt: skip
        attn_dropout = dropout if attn_dropout is None else attn_dropout
        act_dropout = dropout if act_dropout is None else act_dropout
        self.normalize_before = normalize_before
        sublayers = attentions + 1
        weight_attrs, bias_attrs = _param_attr_list(weight_attr, sublayers), _param_attr_list(bias_attr, sublayers)
        self.self_attn = MultiHeadAttention(d_model, nhead, dropout=attn_dropout, weight_attr=weight_attrs[0],
                                            bias_attr=bias_attrs[0])  # fmt: skip
        if attentions == 2:
            self.cross_attn = MultiHeadAttention(d_model, nhead, dropout=attn_dropout, weight_attr=weight_attrs[1],
                                                 bias_attr=bias_attrs[1])  # fmt: skip
        self.linear1 = Linear(d_model, dim_feedforward, weight_attrs[-1], bias_attr=bias_attrs[-1])
        self.dropout = Dropout(act_dropout, mode="upscale_in_train")
        self.linear2 = Linear(dim_feedforward, d_model, weight_attrs[-1], bias_attr=bias_attrs[-1])
        for i in range(1, sublayers + 1):
            setattr(self, f"norm{i}", LayerNorm(d_model))
        for i in range(1, sublayers + 1):
            setattr(self, f"dropout{i}", Dropout(dropout, mode="upscale_in_train"))
        if not isinstance(activation, str):
            raise TypeError(f"{type(self).__name__}: activation must be the name of a function of paddle.nn."
                            f"functional such as 'relu' or 'gelu', got {type(activation).__name__}")  # fmt: skip
        self.activation = getattr(F, activation, None)
        if self.activation is None:
            raise ValueError(f"{type(self).__name__}: activation must be the name of a function of "
                             f"paddle.nn.functional such as 'relu' or 'gelu', got {activation!r}")  # fmt: skip

    def _pre(self, x, norm):
        """The input of a sublayer: x, or norm(x) with normalize_before."""
        return norm(x) if self.normalize_before else x

    def _post(self, residual, out, dropout, norm):
        """The residual connection around a sublayer's output, then norm (unless it came before)."""
        x = ops.add(residual, dropout(out))
        return x if self.normalize_before else norm(x)

    def _feed_forward(self, x):
        return self.linear2(self.dropout(self.activation(self.linear1(x))))


class TransformerEncoderLayer(_TransformerLayer):
    """Self attention then a feed-forward network, each wrapped in a residual connection and LayerNorm
    (after it by default, before it with normalize_before=True).

    Args:
        d_model, nhead, dim_feedforward: widths. dropout: on the residual branches. activation: 'relu' or any
        name in paddle.nn.functional. attn_dropout, act_dropout: on the attention weights and after the
        activation (default: dropout). weight_attr, bias_attr: one ParamAttr, or a list of 2 (attention, FFN).

    Example:
        >>> layer = paddle.nn.TransformerEncoderLayer(d_model=16, nhead=4, dim_feedforward=32)
        >>> layer(paddle.rand([2, 5, 16])).shape
        [2, 5, 16]
    """

    def __init__(self, d_model, nhead, dim_feedforward, dropout=0.1, activation="relu", attn_dropout=None,
                 act_dropout=None, normalize_before=False, weight_attr=None, bias_attr=None):  # fmt: skip
        super().__init__(1, d_model, nhead, dim_feedforward, dropout, activation, attn_dropout, act_dropout,
                         normalize_before, weight_attr, bias_attr)  # fmt: skip

    def forward(self, src, src_mask=None, cache=None):
        check_tensor(src, type(self).__name__, "src")
        src_mask = _convert_attention_mask(src_mask, src.dtype)
        x = self._pre(src, self.norm1)
        if cache is None:
            x = self.self_attn(x, x, x, src_mask)
        else:
            x, cache = self.self_attn(x, x, x, src_mask, cache)
        src = self._post(src, x, self.dropout1, self.norm1)
        src = self._post(src, self._feed_forward(self._pre(src, self.norm2)), self.dropout2, self.norm2)
        return src if cache is None else (src, cache)

    def gen_cache(self, src):
        return self.self_attn.gen_cache(src, type=self.self_attn.Cache)


def _check_norm(norm, fn: str):
    if norm is not None and not isinstance(norm, Layer):
        raise TypeError(f"{fn}: norm must be a Layer (a LayerNorm) or None, got {type(norm).__name__}")
    return norm


class TransformerEncoder(Layer):
    """num_layers encoder layers in a row (the first is encoder_layer, the others fresh copies of its
    configuration), then `norm` if given.

    Example:
        >>> layer = paddle.nn.TransformerEncoderLayer(16, 4, 32)
        >>> encoder = paddle.nn.TransformerEncoder(layer, num_layers=2)
        >>> encoder(paddle.rand([2, 5, 16])).shape
        [2, 5, 16]
    """

    def __init__(self, encoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = _stack(encoder_layer, num_layers, "TransformerEncoder")
        self.num_layers, self.norm = num_layers, _check_norm(norm, "TransformerEncoder")

    def forward(self, src, src_mask=None, cache=None):
        check_tensor(src, type(self).__name__, "src")
        src_mask = _convert_attention_mask(src_mask, src.dtype)
        output, new_caches = src, []
        for i, layer in enumerate(self.layers):
            if cache is None:
                output = layer(output, src_mask=src_mask)
            else:
                output, c = layer(output, src_mask=src_mask, cache=cache[i])
                new_caches.append(c)
        if self.norm is not None:
            output = self.norm(output)
        return output if cache is None else (output, new_caches)

    def gen_cache(self, src):
        return [layer.gen_cache(src) for layer in self.layers]


class TransformerDecoderLayer(_TransformerLayer):
    """Self attention over the target, cross attention to the encoder's memory, then a feed-forward network;
    each wrapped in a residual connection and LayerNorm (after, or before with normalize_before=True).

    Arguments as TransformerEncoderLayer; weight_attr / bias_attr may be a list of 3 (self attention, cross
    attention, FFN). forward(tgt, memory, tgt_mask=None, memory_mask=None, cache=None).

    Example:
        >>> layer = paddle.nn.TransformerDecoderLayer(16, 4, 32)
        >>> layer(paddle.rand([2, 3, 16]), paddle.rand([2, 5, 16])).shape
        [2, 3, 16]
    """

    def __init__(self, d_model, nhead, dim_feedforward, dropout=0.1, activation="relu", attn_dropout=None,
                 act_dropout=None, normalize_before=False, weight_attr=None, bias_attr=None):  # fmt: skip
        super().__init__(2, d_model, nhead, dim_feedforward, dropout, activation, attn_dropout, act_dropout,
                         normalize_before, weight_attr, bias_attr)  # fmt: skip

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, cache=None):
        check_tensor(tgt, type(self).__name__, "tgt")
        check_tensor(memory, type(self).__name__, "memory")
        tgt_mask = _convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = _convert_attention_mask(memory_mask, memory.dtype)
        x = self._pre(tgt, self.norm1)
        if cache is None:
            x = self.self_attn(x, x, x, tgt_mask, None)
        else:
            x, incremental = self.self_attn(x, x, x, tgt_mask, cache[0])
        tgt = self._post(tgt, x, self.dropout1, self.norm1)
        x = self._pre(tgt, self.norm2)
        if cache is None:
            x = self.cross_attn(x, memory, memory, memory_mask, None)
        else:
            x, static = self.cross_attn(x, memory, memory, memory_mask, cache[1])
        tgt = self._post(tgt, x, self.dropout2, self.norm2)
        tgt = self._post(tgt, self._feed_forward(self._pre(tgt, self.norm3)), self.dropout3, self.norm3)
        return tgt if cache is None else (tgt, (incremental, static))

    def gen_cache(self, memory):
        incremental = self.self_attn.gen_cache(memory, type=self.self_attn.Cache)
        static = self.cross_attn.gen_cache(memory, memory, type=self.cross_attn.StaticCache)
        return incremental, static


class TransformerDecoder(Layer):
    """num_layers decoder layers in a row (the first is decoder_layer, the others fresh copies of its
    configuration), then `norm` if given.

    Example:
        >>> layer = paddle.nn.TransformerDecoderLayer(16, 4, 32)
        >>> decoder = paddle.nn.TransformerDecoder(layer, num_layers=2)
        >>> decoder(paddle.rand([2, 3, 16]), paddle.rand([2, 5, 16])).shape
        [2, 3, 16]
    """

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = _stack(decoder_layer, num_layers, "TransformerDecoder")
        self.num_layers, self.norm = num_layers, _check_norm(norm, "TransformerDecoder")

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, cache=None):
        check_tensor(tgt, type(self).__name__, "tgt")
        check_tensor(memory, type(self).__name__, "memory")
        tgt_mask = _convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = _convert_attention_mask(memory_mask, memory.dtype)
        output, new_caches = tgt, []
        for i, layer in enumerate(self.layers):
            if cache is None:
                output = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask)
            else:
                output, c = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask, cache=cache[i])
                new_caches.append(c)
        if self.norm is not None:
            output = self.norm(output)
        return output if cache is None else (output, new_caches)

    def gen_cache(self, memory, do_zip=False):
        caches = [layer.gen_cache(memory) for layer in self.layers]
        return list(zip(*caches)) if do_zip else caches


def _split_attr(attr):
    """Transformer's weight_attr / bias_attr: one for all, or a list of 1, 2 or 3 spread over encoder and decoder."""
    if not isinstance(attr, (list, tuple)):
        return attr, attr
    if len(attr) == 1:
        return [attr[0]] * 2, [attr[0]] * 3
    if len(attr) == 2:
        return list(attr), [attr[0], attr[0], attr[-1]]
    if len(attr) == 3:
        return [attr[0], attr[-1]], list(attr)
    raise ValueError(f"Transformer: weight_attr / bias_attr must be one ParamAttr or a list of 1 to 3, got {attr!r}")


class Transformer(Layer):
    """The encoder-decoder Transformer of "Attention Is All You Need": a TransformerEncoder and a
    TransformerDecoder, each ending in a LayerNorm.

    forward(src, tgt, src_mask=None, tgt_mask=None, memory_mask=None) -> [batch, tgt_len, d_model].
    generate_square_subsequent_mask(length) gives the causal mask for tgt_mask.

    Example:
        >>> model = paddle.nn.Transformer(d_model=16, nhead=4, num_encoder_layers=2, num_decoder_layers=2,
        ...                               dim_feedforward=32)
        >>> model(paddle.rand([2, 5, 16]), paddle.rand([2, 3, 16])).shape
        [2, 3, 16]
    """

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6, dim_feedforward=2048,
                 dropout=0.1, activation="relu", attn_dropout=None, act_dropout=None, normalize_before=False,
                 weight_attr=None, bias_attr=None, custom_encoder=None, custom_decoder=None):  # fmt: skip
        super().__init__()
        for arg, value in (("num_encoder_layers", num_encoder_layers), ("num_decoder_layers", num_decoder_layers)):
            check_int(value, "Transformer", arg, 1)
        for arg, value in (("custom_encoder", custom_encoder), ("custom_decoder", custom_decoder)):
            if value is not None and not isinstance(value, Layer):
                raise TypeError(f"Transformer: {arg} must be a Layer or None, got {type(value).__name__}")
        enc_w, dec_w = _split_attr(weight_attr)
        enc_b, dec_b = _split_attr(bias_attr)
        common = dict(dropout=dropout, activation=activation, attn_dropout=attn_dropout, act_dropout=act_dropout,
                      normalize_before=normalize_before)  # fmt: skip
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, weight_attr=enc_w, bias_attr=enc_b,
                                            **common)  # fmt: skip
            self.encoder = TransformerEncoder(layer, num_encoder_layers, LayerNorm(d_model))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, weight_attr=dec_w, bias_attr=dec_b,
                                            **common)  # fmt: skip
            self.decoder = TransformerDecoder(layer, num_decoder_layers, LayerNorm(d_model))
        self.d_model, self.nhead = d_model, nhead

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None):
        check_tensor(src, "Transformer", "src")
        check_tensor(tgt, "Transformer", "tgt")
        src_mask = _convert_attention_mask(src_mask, src.dtype)
        memory = self.encoder(src, src_mask=src_mask)
        tgt_mask = _convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = _convert_attention_mask(memory_mask, memory.dtype)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask)

    def generate_square_subsequent_mask(self, length):
        """[length, length]: 0 on and below the diagonal, -inf above it (position i may not see j > i)."""
        mask = np.triu(np.full((length, length), -np.inf), 1).astype(get_default_dtype())
        return Tensor(mask)
