"""`python -m viz.tour`: train LeNet on minipaddle's own digits and write tour/index.html.

    python -m viz.tour                              the full tour (12000 training images, 2 epochs)
    python -m viz.tour --train-samples 500 --test-samples 200 --min-accuracy 0   a quick run (tests)

It exits with status 1 when the test accuracy is not above --min-accuracy (0.9 by default), so a tour that
stopped teaching LeNet to read digits does not pass unnoticed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m viz.tour", description=__doc__.split("\n")[0])
    p.add_argument("--train-samples", type=int, default=12000, help="training images to draw (default 12000)")
    p.add_argument("--test-samples", type=int, default=2000, help="test images to draw (default 2000)")
    p.add_argument("--epochs", type=int, default=2, help="passes over the training images (default 2)")
    p.add_argument("--batch-size", type=int, default=64, help="images per training step (default 64)")
    p.add_argument("--seed", type=int, default=0, help="paddle.seed for the weights and the shuffling")
    p.add_argument("--out", default="tour", help="the folder for the page and the saved models (default ./tour)")
    p.add_argument("--min-accuracy", type=float, default=0.9, help="fail when the test accuracy is not above this")
    return p


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    from viz.tour.lesson import run
    from viz.tour.page import write_page

    start = time.time()
    print("The minipaddle tour: Paddle 2.x's 'ten lines to train a model', on numpy, with nothing downloaded.")
    shown = run(args.out, args.train_samples, args.test_samples, args.epochs, args.batch_size, args.seed)
    page = os.path.abspath(os.path.join(args.out, "index.html"))
    write_page(page, shown, vars(args))
    print(f"\n== Done in {time.time() - start:.0f}s. LeNet reads {shown['accuracy']:.2%} of the test digits right.")
    print(f"The page with the training curve and the pictures: {page}")
    print(f"Open it in a browser: file://{page}")
    if shown["accuracy"] <= args.min_accuracy:
        print(f"The test accuracy is not above {args.min_accuracy:.0%}: the tour expected LeNet to learn more.",
              file=sys.stderr)  # fmt: skip
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
