"""The guided first run of minipaddle: `make tour` (or `python -m viz.tour`).

On a fresh machine with nothing downloaded it trains LeNet on the digits minipaddle draws itself, with
`paddle.Model` and a progress bar; evaluates it; saves it, reloads it and checks the reloaded model scores the
same; exports it as a static inference model and runs that; prints the layer summary; and writes
`tour/index.html`, a page with the training curve, the summary, and the pictures viz draws (the autograd graph
of one training step, the inference Program, the checkpoint's state dict).

    lesson.py     the story: each step, printed as it runs, returning what the page shows
    page.py       the self-contained HTML page
    __main__.py   the command line (smaller runs for tests: --train-samples, --epochs, ...)

The tour is an application on top of minipaddle and viz: nothing in minipaddle imports it, and it uses viz
only through viz's public functions.
"""
