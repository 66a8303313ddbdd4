"""A checkpoint of several files is saved as one set (static/files.py write_file_set): killed at any moment, the
next load sees the whole old set or the whole new one, never a mix, and no temporaries pile up.

The kill tests run a child process that saves two distinguishable states A and B in turn, SIGKILL it at seeded
random moments, and then load through the public loader and check every file belongs to the same state.
"""

import hashlib
import json
import os
import random
import select
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import minipaddle as paddle
from minipaddle.static.files import check_file_set, write_file_set
from minipaddle.static.pickle_reader import restricted_loads

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# ---- the manifest's logic, without processes -------------------------------------------------------------------


def test_a_set_round_trips_and_leaves_only_its_files(tmp_path):
    prefix = str(tmp_path / "m")
    write_file_set(prefix, {".a": b"one", ".b": lambda f: f.write(b"two")})
    check_file_set(prefix)
    assert sorted(os.listdir(tmp_path)) == ["m.a", "m.b", "m.pdset"]
    assert json.loads((tmp_path / "m.pdset").read_text())["generation"] == 1
    write_file_set(prefix, {".a": b"three"}, absent=(".b",))
    assert sorted(os.listdir(tmp_path)) == ["m.a", "m.pdset"]
    assert json.loads((tmp_path / "m.pdset").read_text())["generation"] == 2


def test_a_kill_after_the_commit_is_finished_by_the_next_load(tmp_path):
    prefix = str(tmp_path / "m")
    write_file_set(prefix, {".a": b"old-a", ".b": b"old-b"})
    manifest = json.loads((tmp_path / "m.pdset").read_text())
    # what a save killed right after its commit leaves: the new manifest, new data still in its temporaries
    for suffix, content in ((".a", b"new-a"), (".b", b"new-b")):
        tmp = tmp_path / f".m{suffix}.{'0' * 31}{'ab'.index(suffix[1])}.tmp"
        tmp.write_bytes(content)
        digest = hashlib.sha256(content).hexdigest()
        manifest["files"][suffix] = {"tmp": tmp.name, "size": len(content), "sha256": digest}
    (tmp_path / "m.pdset").write_text(json.dumps(manifest))
    check_file_set(prefix)
    assert (tmp_path / "m.a").read_bytes() == b"new-a" and (tmp_path / "m.b").read_bytes() == b"new-b"
    assert sorted(os.listdir(tmp_path)) == ["m.a", "m.b", "m.pdset"]


def test_a_mix_is_refused_naming_the_file(tmp_path):
    prefix = str(tmp_path / "m")
    write_file_set(prefix, {".a": b"one", ".b": b"two"})
    (tmp_path / "m.b").write_bytes(b"from another save")
    with pytest.raises(ValueError, match=r"m\.b.*do not belong to the checkpoint set"):
        check_file_set(prefix, "Model.load")
    write_file_set(prefix, {".a": b"again", ".b": b"again"})  # a new save replaces the set all the same
    check_file_set(prefix)


def test_the_next_save_removes_temporaries_of_killed_saves(tmp_path):
    prefix = str(tmp_path / "m")
    stale = tmp_path / f".m.a.{'1' * 32}.tmp"
    stale.write_bytes(b"x" * 1000)
    other = tmp_path / f".other.a.{'1' * 32}.tmp"  # another file's temporary is not ours to remove
    other.write_bytes(b"y")
    write_file_set(prefix, {".a": b"one"})
    assert not stale.exists() and other.exists()


def test_a_damaged_manifest_is_refused(tmp_path):
    (tmp_path / "m.pdset").write_text("{not json")
    with pytest.raises(ValueError, match="not a minipaddle checkpoint-set manifest"):
        check_file_set(str(tmp_path / "m"))


def test_files_without_a_manifest_load_as_before(tmp_path):
    net = paddle.nn.Linear(2, 2)
    paddle.save(net.state_dict(), str(tmp_path / "m.pdparams"))
    model = paddle.Model(paddle.nn.Linear(2, 2))
    model.load(str(tmp_path / "m"))
    np.testing.assert_array_equal(model.network.weight.numpy(), net.weight.numpy())


def test_a_mixed_model_checkpoint_is_refused_by_model_load(tmp_path):
    net = paddle.nn.Linear(2, 2)
    opt = paddle.optimizer.SGD(parameters=net.parameters())
    model = paddle.Model(net)
    model.prepare(opt)
    model.save(str(tmp_path / "m"))
    paddle.save(paddle.nn.Linear(2, 2).state_dict(), str(tmp_path / "m.pdparams") + ".x")
    os.replace(str(tmp_path / "m.pdparams") + ".x", str(tmp_path / "m.pdparams"))  # a file from elsewhere
    with pytest.raises(ValueError, match="Model.load"):
        model.load(str(tmp_path / "m"))


# ---- kill tests -----------------------------------------------------------------------------------------------

CHILDREN = {
    "model": """
        net = paddle.nn.Linear(64, 64)
        opt = paddle.optimizer.Adam(parameters=net.parameters())
        model = paddle.Model(net)
        model.prepare(opt, paddle.nn.MSELoss())
        net(paddle.ones([2, 64])).sum().backward()
        opt.step()

        def save(k):
            for p in net.parameters():
                p.set_value(np.full(p.shape, k, "float32"))
            for v in opt.state_dict().values():
                if isinstance(v, paddle.Tensor):
                    v.set_value(np.full(v.shape, k, v.numpy().dtype))
            model.save(PREFIX)
    """,
    "static": """
        paddle.enable_static()
        exe = paddle.static.Executor()
        programs = []
        for factor in (1.0, 2.0):
            main, start = paddle.static.Program(), paddle.static.Program()
            with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, start):
                x = paddle.static.data("x", [None, 64], "float32")
                y = paddle.scale(paddle.static.nn.fc(x, 64), factor)
                paddle.optimizer.Momentum(0.1).minimize(paddle.mean(y))
            exe.run(start)
            programs.append(main)

        def save(k):
            program = programs[int(k) - 1]
            scope = paddle.static.global_scope()
            for v in program.list_vars():
                if v.persistable and v.name in scope.vars:
                    scope.vars[v.name] = np.full(scope.vars[v.name].shape, k, scope.vars[v.name].dtype)
            paddle.static.save(program, PREFIX)
    """,
    "jit": """
        class Net(paddle.nn.Layer):
            def __init__(self):
                super().__init__()
                self.fc = paddle.nn.Linear(64, 64)
                self.factor = 1.0

            def forward(self, x):
                return self.fc(x) * self.factor

        net = Net()
        spec = [paddle.static.InputSpec([None, 64], "float32")]

        def save(k):
            for p in net.parameters():
                p.set_value(np.full(p.shape, k, "float32"))
            net.factor = float(k)
            net.fc.weight.stop_gradient = k == 1.0  # .pdiparams.info tells A from B too
            paddle.jit.save(net, PREFIX, input_spec=spec)
    """,
    "inference": """
        paddle.enable_static()
        exe = paddle.static.Executor()
        programs = []
        for factor in (1.0, 2.0):
            main, start = paddle.static.Program(), paddle.static.Program()
            with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, start):
                x = paddle.static.data("x", [None, 64], "float32")
                y = paddle.scale(paddle.static.nn.fc(x, 64), factor)
            exe.run(start)
            programs.append((main, x, y))

        def save(k):
            program, x, y = programs[int(k) - 1]
            scope = paddle.static.global_scope()
            for v in program.list_vars():
                if v.persistable and v.name in scope.vars:
                    scope.vars[v.name] = np.full(scope.vars[v.name].shape, k, scope.vars[v.name].dtype)
            paddle.static.save_inference_model(PREFIX, [x], [y], exe, program=program)
    """,
    # ModelCheckpoint inside Model.fit: fit's own checkpoint callback writes <dir>/0 and <dir>/final each run; a
    # callback ahead of it sets the weights and the optimizer state to k at the epoch's end, so a file tells k
    "fit": """
        import os

        net = paddle.nn.Linear(64, 64)
        opt = paddle.optimizer.Adam(parameters=net.parameters())
        model = paddle.Model(net)
        model.prepare(opt, paddle.nn.MSELoss())
        data = paddle.io.TensorDataset([paddle.ones([2, 64]), paddle.zeros([2, 64])])

        class SetState(paddle.callbacks.Callback):
            def on_epoch_end(self, epoch, logs=None):
                for p in net.parameters():
                    p.set_value(np.full(p.shape, K, "float32"))
                for v in opt.state_dict().values():
                    if isinstance(v, paddle.Tensor):
                        v.set_value(np.full(v.shape, K, v.numpy().dtype))

        def save(k):
            global K
            K = k
            model.fit(data, batch_size=2, epochs=1, save_dir=os.path.dirname(PREFIX), verbose=0,
                      callbacks=[SetState()])  # fmt: skip
    """,
}


def _child(kind: str, prefix: str) -> str:
    """A script that saves state A, says ready, then saves B, A, B... until killed (or, given `once`, saves A
    and exits: the save that must clean up after the killed ones)."""
    body = textwrap.dedent(CHILDREN[kind])
    return (
        # stdout is the test's channel (fit's ModelCheckpoint prints its own lines): only 'ready' goes there
        "import os\nimport sys\nimport numpy as np\nimport minipaddle as paddle\n"
        "CHANNEL, sys.stdout = sys.stdout, open(os.devnull, 'w')\n"
        f"PREFIX = {prefix!r}\n{body}\n"
        "save(1.0)\nprint('ready', file=CHANNEL, flush=True)\n"
        "k = 2.0\nwhile sys.argv[1:] != ['once']:\n    save(k)\n    k = 3.0 - k\n"
    )


def _prefixes(kind: str, prefix: str) -> list:
    """The sets a child writes: fit's ModelCheckpoint writes <dir>/0 each epoch and <dir>/final at the end."""
    return [prefix, os.path.join(os.path.dirname(prefix), "final")] if kind == "fit" else [prefix]


def _state_after_load(kind: str, prefix: str) -> set:
    """The states (1.0 for A, 2.0 for B) that the loaded files show, read through the public loaders."""
    seen = set()
    if kind in ("model", "fit"):
        net = paddle.nn.Linear(64, 64)
        model = paddle.Model(net)
        model.prepare(paddle.optimizer.Adam(parameters=net.parameters()), paddle.nn.MSELoss())
        model.load(prefix)  # checks the set (and finishes a committed save's renames)
        for name in (".pdparams", ".pdopt"):
            for v in paddle.load(prefix + name).values():
                if isinstance(v, paddle.Tensor):
                    seen.update(np.unique(v.numpy()).tolist())
    elif kind == "static":
        state = paddle.static.load_program_state(prefix)  # checks the set
        seen.update(float(x) for v in state.values() for x in np.unique(v))
        program = paddle.static.deserialize_program(open(prefix + ".pdmodel", "rb").read())
        seen.update(float(op.attrs["scale"]) for op in program.global_block().ops if op.type == "scale")
    elif kind == "inference":
        paddle.enable_static()
        try:
            exe = paddle.static.Executor()
            scope = paddle.static.Scope()
            with paddle.static.scope_guard(scope):
                program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)  # checks the set
                (out,) = exe.run(program, feed={feeds[0]: np.ones([1, 64], "float32")}, fetch_list=fetches)
        finally:
            paddle.disable_static()
        seen.update(k for k in (1.0, 2.0) if np.allclose(out, k * (64 * k + k)))
        seen = seen or {float("nan")}  # an output of neither state: new parameters beside the other Program
    else:
        loaded = paddle.jit.load(prefix)  # checks the set
        out = loaded(paddle.ones([1, 64])).numpy()
        for k in (1.0, 2.0):
            if np.allclose(out, k * (64 * k + k)):
                seen.add(k)
        if not seen:
            seen.add(float("nan"))  # an output of neither state
        info = restricted_loads(open(prefix + ".pdiparams.info", "rb").read())  # Paddle's pickle
        seen.update(1.0 if e["stop_gradient"] else 2.0 for e in info.values() if e["structured_name"] == "fc.weight")
    return seen


KINDS = ["model", "static", "jit", "inference", "fit"]
START_TIMEOUT = 120  # seconds for a child to import minipaddle and make its first save, on a loaded machine


def _kill_at_random_moments(kind: str, tmp_path, kills: int, seed: int) -> None:
    """Start the child `kills` times, SIGKILL it at a seeded random moment of its save loop, and check after each
    kill that every set loads as one whole state; then one more save must clean up all the temporaries."""
    rng = random.Random(seed)
    prefix = str(tmp_path / "ckpt" / "m" if kind != "fit" else tmp_path / "ckpt" / "0")
    script = tmp_path / "child.py"
    script.write_text(_child(kind, prefix))
    env = dict(os.environ, PYTHONPATH=REPO)
    directory = os.path.dirname(prefix)
    for _ in range(kills):
        child = subprocess.Popen([sys.executable, str(script)], cwd=REPO, env=env, stdout=subprocess.PIPE)
        try:
            # readline would block for ever on a child that hangs before its first save: wait with a bound
            ready, _, _ = select.select([child.stdout], [], [], START_TIMEOUT)
            line = child.stdout.readline() if ready else b""
            assert line.strip() == b"ready", f"the {kind} child did not make its first save in {START_TIMEOUT} s"
            time.sleep(rng.uniform(0.0, 0.4))
            child.send_signal(signal.SIGKILL)
        finally:
            child.kill()
            child.wait(timeout=30)
            child.stdout.close()
        for set_prefix in _prefixes(kind, prefix):
            seen = _state_after_load(kind, set_prefix)
            assert len(seen) == 1 and seen <= {1.0, 2.0}, f"{kind}: the files after a kill mix states {seen}"
        leftovers = [n for n in os.listdir(directory) if n.endswith(".tmp")]
        # at most one killed save's temporaries (the first save of the next child removes them)
        assert len(leftovers) <= 4 * len(_prefixes(kind, prefix)), f"temporaries pile up: {leftovers}"
    subprocess.run([sys.executable, str(script), "once"], cwd=REPO, env=env, timeout=START_TIMEOUT, check=True,
                   stdout=subprocess.DEVNULL)  # fmt: skip
    leftovers = [n for n in os.listdir(directory) if n.endswith(".tmp")]
    assert leftovers == [], f"{kind}: the save after the kills left temporaries {leftovers}"
    for set_prefix in _prefixes(kind, prefix):
        assert _state_after_load(kind, set_prefix) == {1.0}  # what the last save wrote, whole


@pytest.mark.parametrize("kind", KINDS)
def test_a_save_killed_at_a_random_moment_leaves_one_whole_set(kind, tmp_path):
    _kill_at_random_moments(kind, tmp_path, kills=1, seed=18)  # two child processes per kind; the slow test has 9


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_a_save_killed_at_many_random_moments_leaves_one_whole_set(kind, tmp_path):
    _kill_at_random_moments(kind, tmp_path, kills=8, seed=1018)
