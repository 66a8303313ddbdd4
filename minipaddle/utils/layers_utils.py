"""paddle.utils.layers_utils: the nested-structure ("nest") helpers user code imports from paddle.utils.

A structure is a value or a list/tuple/dict (any Sequence but str) of structures. `flatten` lists its leaves, dict
values in sorted-key order; `pack_sequence_as` puts a flat list back into a structure's shape; `map_structure`
applies a function leaf by leaf across structures of one shape. Written after paddle 2.6's module, whose other
half (shape-tensor helpers for static-mode op builders) has no counterpart here.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

__all__: list = []


def convert_to_list(value, n: int, name: str, dtype=int) -> list:
    """`value` (one number, or n of them) as a list of n numbers of `dtype`: convert_to_list(3, 2, 'stride') is
    [3, 3]. ValueError naming `name` when it is neither."""
    if isinstance(value, dtype):
        return [value] * n
    try:
        value_list = list(value)
    except TypeError:
        raise ValueError(f"The {name}'s type must be list or tuple. Received: {value}") from None
    if len(value_list) != n:
        raise ValueError(f"The {name}'s length must be {n}. Received: {value}")
    for single_value in value_list:
        try:
            dtype(single_value)
        except (ValueError, TypeError):
            raise ValueError(f"The {name}'s type must be a list or tuple of {n} {dtype} . Received: {value} including "
                             f"element {single_value} of type {type(single_value)}") from None  # fmt: skip
    return value_list


def is_sequence(seq) -> bool:
    """Whether `seq` is a nested structure (a dict, or a Sequence other than str) rather than a leaf."""
    if isinstance(seq, dict):
        return True
    return isinstance(seq, Sequence) and not isinstance(seq, str)


def _sorted(dict_) -> list:
    try:
        return sorted(dict_.keys())
    except TypeError:
        raise TypeError("nest only supports dicts with sortable keys.") from None


def _yield_value(iterable):
    if isinstance(iterable, dict):
        for key in _sorted(iterable):
            yield iterable[key]
    else:
        yield from iterable


def _yield_flat_nest(nest):
    for n in _yield_value(nest):
        if is_sequence(n):
            yield from _yield_flat_nest(n)
        else:
            yield n


def to_sequence(nest):
    """`nest` itself if it is a structure, else [nest]."""
    return nest if is_sequence(nest) else [nest]


def flatten(nest) -> list:
    """Every leaf of `nest`, depth first (a dict's values in the order of its sorted keys)."""
    return list(_yield_flat_nest(nest)) if is_sequence(nest) else [nest]


def _sequence_like(instance, args):
    """`args` as a sequence of `instance`'s type (a dict keeps its own key order; a namedtuple its fields)."""
    if isinstance(instance, dict):
        result = dict(zip(_sorted(instance), args))
        return type(instance)((key, result[key]) for key in instance.keys())
    fields = getattr(instance, "_fields", None)
    if isinstance(instance, tuple) and isinstance(fields, Sequence) and all(isinstance(f, str) for f in fields):
        return type(instance)(*args)
    return type(instance)(args)


def _packed_nest_with_indices(structure, flat, index: int):
    packed = []
    for s in _yield_value(structure):
        if is_sequence(s):
            index, child = _packed_nest_with_indices(s, flat, index)
            packed.append(_sequence_like(s, child))
        else:
            packed.append(flat[index])
            index += 1
    return index, packed


def pack_sequence_as(structure, flat_sequence):
    """The leaves of `flat_sequence`, in order, put into the shape of `structure` (the inverse of flatten)."""
    if not is_sequence(flat_sequence):
        raise TypeError("flat_sequence must be a sequence")
    if not is_sequence(structure):
        if len(flat_sequence) != 1:
            raise ValueError(f"Structure is a scalar but len(flat_sequence) == {len(flat_sequence)} > 1")
        return flat_sequence[0]
    flat_structure = flatten(structure)
    if len(flat_structure) != len(flat_sequence):
        raise ValueError(f"Could not pack sequence. Structure had {len(flat_structure)} elements, but flat_sequence "
                         f"had {len(flat_sequence)} elements.  Structure: {structure}, flat_sequence: "
                         f"{flat_sequence}.")  # fmt: skip
    _, packed = _packed_nest_with_indices(structure, flat_sequence, 0)
    return _sequence_like(structure, packed)


def map_structure(func, *structure):
    """`func` applied to the leaves of the structures, position by position, in the first structure's shape."""
    flat_structure = [flatten(s) for s in structure]
    return pack_sequence_as(structure[0], [func(*x) for x in zip(*flat_structure)])


def hold_mutable_vars(structure) -> bool:
    """Whether some entry of `structure` is itself a structure."""
    return any(is_sequence(s) for s in structure)


def copy_mutable_vars(structure):
    """A new structure of the same shape holding the same leaves."""
    return pack_sequence_as(structure, copy.copy(flatten(structure)))


def _recursive_assert_same_structure(nest1, nest2, check_types: bool) -> None:
    is_sequence_nest1 = is_sequence(nest1)
    if is_sequence_nest1 != is_sequence(nest2):
        raise ValueError(f"The two structures don't have the same nested structure.\n\nFirst structure: {nest1}\n\n"
                         f"Second structure: {nest2}.")  # fmt: skip
    if not is_sequence_nest1:
        return
    if check_types:
        if type(nest1) is not type(nest2):
            raise TypeError(f"The two structures don't have the same sequence type. First structure has type "
                            f"{type(nest1)}, while second structure has type {type(nest2)}.")  # fmt: skip
        if isinstance(nest1, dict) and set(nest1.keys()) != set(nest2.keys()):
            raise ValueError(f"The two dictionaries don't have the same set of keys. First structure has keys "
                             f"{set(nest1.keys())}, while second structure has keys {set(nest2.keys())}.")  # fmt: skip
    for n1, n2 in zip(_yield_value(nest1), _yield_value(nest2)):
        _recursive_assert_same_structure(n1, n2, check_types)


def padding_to_same_structure(nest1, nest2, obj=None):
    """Both structures with each None leaf replaced by `obj`."""

    def single(value):
        if is_sequence(value):
            return pack_sequence_as(value, [obj if item is None else item for item in flatten(value)])
        return obj if value is None else value

    return single(nest1), single(nest2)


def assert_same_structure(nest1, nest2, check_types: bool = True) -> None:
    """ValueError (TypeError for different sequence types with check_types) unless the two structures have the
    same shape."""
    len_nest1 = len(flatten(nest1)) if is_sequence(nest1) else 1
    len_nest2 = len(flatten(nest2)) if is_sequence(nest2) else 1
    if len_nest1 != len_nest2:
        raise ValueError(f"The two structures don't have the same number of elements.\n\nFirst structure "
                         f"({len_nest1} elements): {nest1}\n\nSecond structure ({len_nest2} elements): "
                         f"{nest2}")  # fmt: skip
    _recursive_assert_same_structure(nest1, nest2, check_types)
