"""Notebook 06's exercise: the loop of `halve_until_small` written by hand with paddle.static.nn.while_loop."""

import minipaddle as paddle


def by_hand(x):
    def cond(x, n):
        return x.sum() > 1.0

    def body(x, n):
        return [x / 2, n + 1]

    n = paddle.zeros([], "int64")
    x, n = paddle.static.nn.while_loop(cond, body, [x, n])
    return x, n
