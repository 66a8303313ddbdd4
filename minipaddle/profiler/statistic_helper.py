"""paddle.profiler.statistic_helper: arithmetic on lists of time ranges [(start, end), ...], as paddle 2.6's profiler
statistics use it. minipaddle's own statistics (statistics.py) do the same with events; these are paddle's names.

A "merged" list is sorted by start, with overlapping or touching ranges joined (a zero-length range that no other
covers is kept, as paddle keeps it). merge_self_ranges merges a list; the two-list functions merge their inputs
first unless is_sorted=True says they already are. Checked against paddle on random lists (ranges.json).
"""

from __future__ import annotations

__all__ = []  # as paddle 2.6: reached as paddle.profiler.statistic_helper.X


def sum_ranges(ranges) -> float:
    """The total length of `ranges` (overlaps counted twice: merge first to count them once)."""
    return sum(end - start for start, end in ranges)


def merge_self_ranges(src_ranges, is_sorted=False) -> list:
    """`src_ranges` as a merged list: overlapping or touching ranges joined. Unlike paddle, the input list is not
    sorted in place."""
    merged = []
    for start, end in src_ranges if is_sorted else sorted(src_ranges, key=lambda r: r[0]):
        if not merged:
            merged.append((start, end))
        elif end > merged[-1][1]:
            if start <= merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
            else:
                merged.append((start, end))
    return merged


def merge_ranges(range_list1, range_list2, is_sorted=False) -> list:
    """The union of two lists, merged."""
    if not is_sorted:
        range_list1, range_list2 = merge_self_ranges(range_list1), merge_self_ranges(range_list2)
    if not range_list1 or not range_list2:
        return list(range_list1 or range_list2)
    return merge_self_ranges(list(range_list1) + list(range_list2))


def intersection_ranges(range_list1, range_list2, is_sorted=False) -> list:
    """The time covered by both lists, walking them together as paddle does: a zero-length range inside the other
    list's time counts too (paddle's statistics keep such instants)."""
    if not range_list1 or not range_list2:
        return []
    if not is_sorted:
        range_list1, range_list2 = merge_self_ranges(range_list1), merge_self_ranges(range_list2)
    out, i, j = [], 0, 0
    a, b = range_list1[0], range_list2[0]
    while True:
        if b[1] <= a[0]:  # b ends before a starts
            j += 1
            if j == len(range_list2):
                break
            b = range_list2[j]
        elif b[0] <= a[0] and b[1] < a[1]:  # b covers a's start
            out.append((a[0], b[1]))
            a = (b[1], a[1])
            j += 1
            if j == len(range_list2):
                break
            b = range_list2[j]
        elif b[0] <= a[0]:  # b covers all of a
            out.append(a)
            b = (a[1], b[1])
            i += 1
            if i == len(range_list1):
                break
            a = range_list1[i]
        elif b[1] < a[1]:  # b inside a
            out.append(b)
            a = (b[1], a[1])
            j += 1
            if j == len(range_list2):
                break
            b = range_list2[j]
        elif b[0] < a[1]:  # b covers a's end
            out.append((b[0], a[1]))
            b = (a[1], b[1])
            i += 1
            if i == len(range_list1):
                break
            a = range_list1[i]
        else:  # b starts after a ends
            i += 1
            if i == len(range_list1):
                break
            a = range_list1[i]
    return out


def subtract_ranges(range_list1, range_list2, is_sorted=False) -> list:
    """The time covered by the first list and not by the second, walking them together as paddle does (a
    zero-length range of the first list outside the second is kept)."""
    if not is_sorted:
        range_list1, range_list2 = merge_self_ranges(range_list1), merge_self_ranges(range_list2)
    if not range_list1:
        return []
    if not range_list2:
        return list(range_list1)
    out, i, j = [], 0, 0
    a, b = range_list1[0], range_list2[0]
    while i < len(range_list1):
        if j == len(range_list2):  # nothing left to take away
            out.append(a)
            i += 1
            if i < len(range_list1):
                a = range_list1[i]
        elif b[1] <= a[0]:  # b ends before a starts
            j += 1
            if j < len(range_list2):
                b = range_list2[j]
        elif b[0] <= a[0] and b[1] < a[1]:  # b takes a's start
            a = (b[1], a[1])
            j += 1
            if j < len(range_list2):
                b = range_list2[j]
        elif b[0] <= a[0]:  # b takes all of a
            b = (a[1], b[1])
            i += 1
            if i < len(range_list1):
                a = range_list1[i]
        elif b[0] < a[1]:  # b starts inside a: keep a's part before it
            out.append((a[0], b[0]))
            a = (b[0], a[1])
        else:  # b starts after a ends
            out.append(a)
            i += 1
            if i < len(range_list1):
                a = range_list1[i]
    return out
