"""paddle.utils: require_version, try_import, deprecated, run_check, unique_name (as in paddle 2.6.2)."""

import pytest

import minipaddle as paddle


def test_require_version_accepts_2_6_2():
    paddle.utils.require_version("2.0.0")
    paddle.utils.require_version("2.6")
    paddle.utils.require_version(min_version="2.6", max_version="2.6.2")


@pytest.mark.parametrize(("low", "high"), [("3.0", None), ("2.6.3", None), ("2.0", "2.5"), ("2.6.2.1", "3")])
def test_require_version_rejects(low, high):
    with pytest.raises(RuntimeError, match="VersionError: PaddlePaddle version"):
        paddle.utils.require_version(low, high)


def test_require_version_argument_errors():
    with pytest.raises(TypeError, match="min_version must be a str"):
        paddle.utils.require_version(2)
    with pytest.raises(TypeError, match="max_version"):
        paddle.utils.require_version("2.0", 3)
    for bad in ("2.x", "1.2.3.4.5", ""):
        with pytest.raises(ValueError, match="min_version"):
            paddle.utils.require_version(bad)
    with pytest.raises(ValueError, match="max_version"):
        paddle.utils.require_version("2.0", "three")


def test_try_import():
    import json

    assert paddle.utils.try_import("json") is json
    with pytest.raises(ImportError, match=r"pip install nonexistent_pkg_xyz"):
        paddle.utils.try_import("nonexistent_pkg_xyz.sub")
    with pytest.raises(ImportError, match="^custom$"):
        paddle.utils.try_import("nonexistent_pkg_xyz", err_msg="custom")


def test_deprecated_returns_the_function_unchanged():
    def f(x):
        """doc"""
        return x + 1

    assert paddle.utils.deprecated(update_to="paddle.g", since="2.0", level=1)(f) is f


def test_run_check_prints_success(capsys):
    paddle.utils.run_check()
    out = capsys.readouterr().out
    assert "works well on 1 CPU" in out and "installed successfully" in out
    assert paddle.in_dynamic_mode()


def test_unique_name():
    un = paddle.utils.unique_name
    with un.guard():
        assert [un.generate("fc"), un.generate("fc"), un.generate("conv")] == ["fc_0", "fc_1", "conv_0"]
        with un.guard():
            assert un.generate("fc") == "fc_0"
        assert un.generate("fc") == "fc_2"
    with un.guard("prefix_"):  # (paddle 2.6.2: prefix_fc_0 prefix_fc_1, an inner guard() unprefixed fc_0)
        assert [un.generate("fc"), un.generate("fc")] == ["prefix_fc_0", "prefix_fc_1"]
        with un.guard():
            assert un.generate("fc") == "fc_0"
    with pytest.raises(ValueError, match="new_generator=None .* or a prefix str"), un.guard(3):
        pass
    with pytest.raises(TypeError, match="generate"):
        un.generate(3)
