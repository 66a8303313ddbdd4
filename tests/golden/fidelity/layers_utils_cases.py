"""paddle.utils' nested-structure helpers (paddle.utils.layers_utils), run with either library (`paddle` passed
in); make_layers_utils_golden.py records run_all(paddle 2.6) into layers_utils.json, tests/utils/test_layers_utils.py
compares."""

import collections

Point = collections.namedtuple("Point", ["x", "y"])


def _outcome(f):
    try:
        return ["ok", _plain(f())]
    except Exception as e:  # noqa: BLE001  (the kind is what is recorded)
        return [type(e).__name__]


def _plain(v):
    """JSON-able, with each sequence's type name kept."""
    if isinstance(v, dict):
        return {"dict": [[k, _plain(v[k])] for k in v]}
    if isinstance(v, (list, tuple)):
        return {type(v).__name__: [_plain(e) for e in v]}
    return v


def run_all(paddle):
    u = paddle.utils
    nest = {"b": [1, (2, 3)], "a": Point(4, [5]), "c": "str"}
    flat = u.flatten(nest)
    return {
        "flatten": _plain(flat),
        "flatten_leaf": _plain(u.flatten(7)),
        "pack": _plain(u.pack_sequence_as(nest, [x * 10 if isinstance(x, int) else x for x in flat])),
        "pack_leaf": _outcome(lambda: u.pack_sequence_as(1, [5])),
        "pack_too_few": _outcome(lambda: u.pack_sequence_as([1, [2]], [1])),
        "pack_not_a_sequence": _outcome(lambda: u.pack_sequence_as([1], 5)),
        "map": _plain(u.map_structure(lambda a, b: a + b, [1, (2, {"k": 3})], [10, (20, {"k": 30})])),
        "is_sequence": [u.is_sequence(v) for v in ([], (), {}, "s", 1, Point(1, 2))],
        "to_sequence": [_plain(u.to_sequence(v)) for v in (1, [1], "s")],
        "same": _outcome(lambda: u.assert_same_structure([1, (2, 3)], [4, (5, 6)])),
        "same_count": _outcome(lambda: u.assert_same_structure([1, 2], [1])),
        "same_types": _outcome(lambda: u.assert_same_structure([1, 2], (1, 2))),
        "same_types_off": _outcome(lambda: u.assert_same_structure([1, 2], (1, 2), check_types=False)),
        "same_keys": _outcome(lambda: u.assert_same_structure({"a": 1}, {"b": 1})),
        "same_nesting": _outcome(lambda: u.assert_same_structure([1, [2]], [[1], 2])),
        "padding": _plain(u.padding_to_same_structure([1, None, (None,)], None, obj=0)),
        "hold": [u.hold_mutable_vars([1, 2]), u.hold_mutable_vars([1, [2]])],
        "copy": _plain(u.copy_mutable_vars({"a": [1, 2]})),
        "convert": [
            _outcome(lambda: u.convert_to_list(3, 2, "stride")),
            _outcome(lambda: u.convert_to_list((1, 2), 2, "stride")),
            _outcome(lambda: u.convert_to_list((1, 2), 3, "stride")),
            _outcome(lambda: u.convert_to_list(None, 2, "stride")),
            _outcome(lambda: u.convert_to_list(["a", 2], 2, "stride")),
        ],  # fmt: skip
        "layers_utils_module": paddle.utils.layers_utils.flatten is u.flatten,
    }
