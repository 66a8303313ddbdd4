import pytest

import minipaddle as paddle


@pytest.fixture
def static_mode():
    """Static mode for one test, with fresh default programs; dynamic mode again afterwards."""
    from minipaddle.core.state import STATE

    saved = (STATE.main_program, STATE.startup_program)
    STATE.main_program, STATE.startup_program = paddle.static.Program(), paddle.static.Program()
    paddle.enable_static()
    try:
        yield
    finally:
        paddle.disable_static()
        STATE.main_program, STATE.startup_program = saved
