"""paddle.static.log_helper: get_logger, as paddle 2.6 has it."""

from __future__ import annotations

import logging

__all__ = []  # as paddle 2.6: reached as paddle.static.log_helper.get_logger


def get_logger(name, level, fmt=None):
    """The logger `name` at `level` with a stderr handler of its own (formatted with `fmt` and paddle's date format
    when given) and no propagation to the root logger, so nothing calls logging.basicConfig.

    Args:
        name (str): the logger's name.
        level (int|str): its level, e.g. logging.INFO.
        fmt (str, optional): the format of its lines.

    Returns:
        logging.Logger

    Example:
        >>> logger = paddle.static.log_helper.get_logger(__name__, logging.INFO, fmt='%(levelname)s: %(message)s')
    """
    logger = logging.getLogger(name)
    logger.setLevel(level)
    handler = logging.StreamHandler()
    if fmt:
        handler.setFormatter(logging.Formatter(fmt=fmt, datefmt="%a %b %d %H:%M:%S"))
    logger.addHandler(handler)
    logger.propagate = False  # propagating would print each line twice once the root logger has a handler
    return logger
