"""The command line: look at a saved model, a small Netron.

    python -m viz program model.pdmodel -o graph.svg     a static Program (save_inference_model / jit.save output)
    python -m viz program model -o graph.png              the same: a path prefix finds model.pdmodel
    python -m viz program model.pdmodel                   the DOT text on stdout (pipe it into `dot -Tsvg`)
    python -m viz layer model.pdparams                    a saved state dict as an indented tree of names
    python -m viz layer model.pdparams -o params.svg      the same tree as a picture

The output format follows the suffix of -o: .svg .png .pdf .html .dot .gv (and .txt for `layer`).
"""

from __future__ import annotations

import argparse
import os
import sys

from viz.render import SUFFIXES


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    try:
        return args.run(args)
    except (OSError, ValueError, TypeError, RuntimeError) as e:
        print(f"python -m viz {args.command}: {e}", file=sys.stderr)
        return 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m viz", description="Draw a saved minipaddle model.")
    commands = parser.add_subparsers(dest="command", required=True)

    program = commands.add_parser("program", help="draw a saved static Program (.pdmodel)")
    program.add_argument("path", help="the .pdmodel file, or the path prefix it was saved under")
    program.add_argument("-o", "--output", help=f"the file to write ({' '.join(SUFFIXES)}); default: DOT on stdout")
    program.add_argument("--no-vars", action="store_true", help="draw ops only; variables between ops become edges")
    program.add_argument("--no-attrs", action="store_true", help="leave op attributes out")
    program.add_argument("--block", type=int, help="draw only this block (and the blocks inside it)")
    program.set_defaults(run=_run_program)

    layer = commands.add_parser("layer", help="show a saved state dict (paddle.save of a Layer's state_dict)")
    layer.add_argument("path", help="the file paddle.save wrote (.pdparams, .pdopt)")
    layer.add_argument("-o", "--output", help=f"the file to write (.txt {' '.join(SUFFIXES)}); default: text on stdout")
    layer.set_defaults(run=_run_layer)
    return parser


def _run_program(args) -> int:
    import minipaddle as paddle
    from viz.program import draw_program

    path = args.path
    if not os.path.isfile(path) and os.path.isfile(path + ".pdmodel"):
        path += ".pdmodel"
    program = paddle.static.deserialize_program(paddle.static.load_from_file(path))
    view = draw_program(program, show_vars=not args.no_vars, block=args.block, show_attrs=not args.no_attrs)
    n_ops, n_blocks = sum(len(b.ops) for b in program.blocks), len(program.blocks)
    return _write(view, args.output, f"{_count(n_ops, 'op')} in {_count(n_blocks, 'block')}")


def _run_layer(args) -> int:
    import minipaddle as paddle
    from minipaddle.static.files import atomic_write
    from viz.state_dict import draw_state_dict, state_dict_text

    state = paddle.load(args.path, return_numpy=True)
    title = os.path.basename(args.path)
    if args.output is None or args.output.lower().endswith(".txt"):
        text = state_dict_text(state, title) + "\n"
        if args.output is None:
            sys.stdout.write(text)
            return 0
        atomic_write(args.output, text.encode("utf-8"))
        print(f"wrote {args.output}")
        return 0
    return _write(draw_state_dict(state, title), args.output, "")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' if n != 1 else ''}"


def _write(view, output, what: str) -> int:
    if output is None:
        sys.stdout.write(view.source)
        return 0
    view.save(output)
    print(f"wrote {output}" + (f" ({what})" if what else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
