"""paddle.hapi.logger.setup_logger: paddle 2.6's logger set-up (stdout on rank 0, a file with `output`)."""

from __future__ import annotations

import logging

from minipaddle.hapi.logger import setup_logger


def test_stdout_and_file(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("PADDLE_TRAINER_ID", raising=False)
    logger = setup_logger(output=str(tmp_path / "logs"), name="hapi_test_logger", log_level=logging.DEBUG)
    try:
        assert logger.propagate is False and logger.level == logging.DEBUG
        logger.info("epoch 1 done")
        for h in logger.handlers:
            h.flush()
        assert "hapi_test_logger - INFO - epoch 1 done" in capsys.readouterr().out
        assert "epoch 1 done" in (tmp_path / "logs" / "log.txt").read_text()
        again = setup_logger(name="hapi_test_logger")  # a second call adds no second stdout handler
        assert again is logger and sum(isinstance(h, logging.FileHandler) for h in logger.handlers) == 1
        assert len(logger.handlers) == 2
    finally:
        for h in list(logger.handlers):
            h.close()
            logger.removeHandler(h)


def test_other_ranks_write_only_their_own_file(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("PADDLE_TRAINER_ID", "2")
    logger = setup_logger(output=str(tmp_path / "run.log"), name="hapi_test_rank2")
    try:
        logger.info("from rank 2")
        for h in logger.handlers:
            h.flush()
        assert capsys.readouterr().out == ""
        assert "from rank 2" in (tmp_path / "run.log.rank2").read_text()
    finally:
        for h in list(logger.handlers):
            h.close()
            logger.removeHandler(h)


def test_static_log_helper_get_logger(capsys):
    from minipaddle.static.log_helper import get_logger

    logger = get_logger("static_log_helper_test", logging.WARNING, fmt="%(levelname)s| %(message)s")
    try:
        assert logger.propagate is False and logger.level == logging.WARNING
        logger.info("hidden")
        logger.warning("shown")
        assert capsys.readouterr().err == "WARNING| shown\n"
    finally:
        for h in list(logger.handlers):
            logger.removeHandler(h)
