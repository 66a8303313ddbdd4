"""Reference answer of notebook 10's exercise: a ring all-reduce written with send and recv."""

import minipaddle as paddle
import minipaddle.distributed as dist


def ring_all_reduce(t):
    """Sum `t` over all ranks, in place, passing one piece at a time round the ring: 2(N-1) steps."""
    rank, n = dist.get_rank(), dist.get_world_size()
    right, left = (rank + 1) % n, (rank - 1) % n
    pieces = paddle.split(t.reshape([-1]).clone(), n)
    for step in range(n - 1):  # reduce-scatter: add the piece that comes from the left
        send_piece, recv_piece = (rank - step) % n, (rank - step - 1) % n
        incoming = paddle.zeros_like(pieces[recv_piece])
        sending = dist.isend(pieces[send_piece], dst=right)  # start sending, then receive: no rank waits for
        dist.recv(incoming, src=left)  # a receive that nobody has posted yet
        sending.wait()
        pieces[recv_piece] = pieces[recv_piece] + incoming
    for step in range(n - 1):  # all-gather: pass the finished pieces on
        send_piece, recv_piece = (rank + 1 - step) % n, (rank - step) % n
        incoming = paddle.zeros_like(pieces[recv_piece])
        sending = dist.isend(pieces[send_piece], dst=right)  # start sending, then receive: no rank waits for
        dist.recv(incoming, src=left)  # a receive that nobody has posted yet
        sending.wait()
        pieces[recv_piece] = incoming
    paddle.assign(paddle.concat(pieces).reshape(t.shape), output=t)
    return t
