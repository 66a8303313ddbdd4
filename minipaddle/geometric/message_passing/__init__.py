"""paddle.geometric.message_passing: send_u_recv, send_ue_recv and send_uv, defined in send_recv.py as in paddle 2.6."""

from minipaddle.geometric.message_passing.send_recv import __all__, send_u_recv, send_ue_recv, send_uv  # noqa: F401
