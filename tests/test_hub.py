"""paddle.hub with source='local': a directory with a hubconf.py, imported from its path (no network)."""

import textwrap

import pytest

import minipaddle as paddle

HUBCONF = '''
    import helper_module_for_hub_test as helper
    import minipaddle as paddle

    dependencies = ["numpy"]


    def mlp(hidden=4):
        """A two-layer perceptron."""
        return paddle.nn.Sequential(paddle.nn.Linear(2, hidden), paddle.nn.Linear(hidden, helper.OUT))


    def nodoc():
        return 1


    def _private():
        return 2
'''


@pytest.fixture
def repo(tmp_path):
    (tmp_path / "hubconf.py").write_text(textwrap.dedent(HUBCONF))
    (tmp_path / "helper_module_for_hub_test.py").write_text("OUT = 3\n")
    return tmp_path


def test_list_help_load(repo):
    assert paddle.hub.list(str(repo), source="local") == ["mlp", "nodoc"]
    assert paddle.hub.help(str(repo), "mlp", source="local") == "A two-layer perceptron."
    assert paddle.hub.help(repo, "nodoc", source="local") is None
    model = paddle.hub.load(str(repo), "mlp", source="local", hidden=5)
    assert model(paddle.ones([1, 2])).shape == [1, 3]
    assert model[0].weight.shape == [2, 5]
    assert str(repo) not in __import__("sys").path  # the repository's path is on sys.path only while importing


def test_load_errors(repo, tmp_path_factory):
    with pytest.raises(RuntimeError, match="cannot find callable 'nope'"):
        paddle.hub.load(str(repo), "nope", source="local")
    with pytest.raises(ValueError, match="model must be a str"):
        paddle.hub.help(str(repo), 3, source="local")
    (repo / "hubconf.py").write_text("dependencies = ['no_such_module_xyz']\ndef m():\n    return 1\n")
    with pytest.raises(RuntimeError, match="missing dependencies: no_such_module_xyz"):
        paddle.hub.load(str(repo), "m", source="local")
    empty = tmp_path_factory.mktemp("empty")
    with pytest.raises(RuntimeError, match="no hubconf.py"):
        paddle.hub.list(str(empty), source="local")


@pytest.mark.parametrize("source", ["github", "gitee"])
def test_remote_sources_say_no_network(source):
    with pytest.raises(ValueError, match="no network access by design"):
        paddle.hub.list("PaddlePaddle/PaddleClas:develop", source=source)
    with pytest.raises(ValueError, match="no network access"):
        paddle.hub.load("owner/repo", "m")  # 'github' is the default


def test_unknown_source():
    with pytest.raises(ValueError, match='unknown source "svn"'):
        paddle.hub.list(".", source="svn")
