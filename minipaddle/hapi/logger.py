"""paddle.hapi.logger: setup_logger, the logger of the high-level API, as paddle 2.6 sets it up."""

from __future__ import annotations

import logging
import os
import sys

__all__ = []  # as paddle 2.6: reached as paddle.hapi.logger.setup_logger

FORMAT = "%(asctime)s - %(name)s - %(levelname)s - %(message)s"


def setup_logger(output=None, name="hapi", log_level=logging.INFO):
    """The logger `name` at `log_level`, not propagating to the root logger, printing to stdout on rank 0
    (PADDLE_TRAINER_ID unset or 0) and, with `output`, writing to a file on every rank.

    Args:
        output (str, optional): a file name (ending in .txt or .log) or a directory (the log goes to output/log.txt);
            other ranks than 0 add '.rank<N>' to the name. None writes no file.
        name (str, optional): the logger's name. Default 'hapi'.
        log_level (int|str, optional): the level, e.g. logging.INFO or 'DEBUG'. Default logging.INFO.

    Returns:
        logging.Logger

    paddle 2.6 hands the file name to a StreamHandler, which cannot write to it; minipaddle opens the file (a
    FileHandler), as the argument means.
    """
    logger = logging.getLogger(name)
    logger.propagate = False
    logger.setLevel(log_level)
    rank = int(os.getenv("PADDLE_TRAINER_ID", "0"))
    if rank == 0 and not logger.handlers:
        console = logging.StreamHandler(stream=sys.stdout)
        console.setLevel(log_level)
        console.setFormatter(logging.Formatter(FORMAT))
        logger.addHandler(console)
    if output is not None:
        filename = output if output.endswith((".txt", ".log")) else os.path.join(output, "log.txt")
        if rank > 0:
            filename = f"{filename}.rank{rank}"
        if os.path.dirname(filename):
            os.makedirs(os.path.dirname(filename), exist_ok=True)
        to_file = logging.FileHandler(filename)
        to_file.setLevel(log_level)
        to_file.setFormatter(logging.Formatter(FORMAT))
        logger.addHandler(to_file)
    return logger
