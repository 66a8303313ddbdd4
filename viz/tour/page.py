"""The tour's page: one self-contained HTML file (pictures inline), written next to the checkpoints.

It shows what the tour did and everything viz can draw of it: test images with the model's answers, the
summary table paddle.summary printed, viz's own sections for a trained network (viz.tour_sections: the Layer
tree, the extended summary, the training curves from the History), the autograd graph of one training step
folded by layer (viz.draw_graph), the inference Program (viz.draw_program), the checkpoint's state dict
(viz.draw_state_dict), the network's cast maps under mixed precision O1 and O2 with the GradScaler's loss scale
(viz/tour/amp.py), a recorded 2-rank data-parallel timeline with the ring all-reduce (viz/tour/distributed.py), and
a LeNet real Paddle saved, run and drawn (viz/tour/paddle_files.py). Without graphviz's `dot` a drawing shows its
DOT source and the install hint instead.
"""

from __future__ import annotations

import base64
import html
import io

from minipaddle.static.files import atomic_write

_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em; color: #222; }
h1 { margin-bottom: 0.2em; } h2 { border-bottom: 1px solid #ddd; padding-bottom: 0.2em; margin-top: 2em; }
pre { background: #f6f8fa; padding: 0.8em; overflow-x: auto; font-size: 13px; }
table.facts td { padding: 0.15em 1em 0.15em 0; } .note { color: #666; }
figure { margin: 1em 0; } figure svg, figure img { max-width: 100%; height: auto; }
"""


def _png(fig) -> str:
    """A matplotlib Figure as an inline <img>."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
    return f'<img alt="figure" src="data:image/png;base64,{base64.b64encode(buf.getvalue()).decode()}">'


def _samples(images, predicted, labels) -> str:
    """Test digits with the model's answer above each (red, with the true label, when wrong)."""
    from matplotlib.figure import Figure  # lazily, and without pyplot's global state

    fig = Figure(figsize=(10, 1.6))
    for i, ax in enumerate(fig.subplots(1, len(images))):
        ax.imshow(images[i], cmap="gray")
        ok = predicted[i] == labels[i]
        ax.set_title(f"{predicted[i]}" if ok else f"{predicted[i]}\n(is {labels[i]})", color="k" if ok else "r",
                     fontsize=9)  # fmt: skip
        ax.axis("off")
    return _png(fig)


def write_page(path: str, shown: dict, settings: dict) -> None:
    """Write the page for what lesson.run returned (`shown`) and the command's settings."""
    import minipaddle as paddle
    import viz
    from viz.quant import quant_tour_section
    from viz.tour.amp import amp_tour_section
    from viz.tour.distributed import distributed_tour_section
    from viz.tour.paddle_files import paddle_files_tour_section

    h = shown["history"]
    params = dict(shown["net"].named_parameters())
    sections = [("Test images and the model's answers", _samples(*shown["samples"]))]
    sections.append(("paddle.summary(LeNet)", f"<pre>{html.escape(shown['summary'])}</pre>"))
    sections += viz.tour_sections(shown["net"], h, input_size=[1, 1, 28, 28])
    sections.append(quant_tour_section(shown["net"], shown["samples"][0][:, None]))
    sections += [
        (
            "One training step's autograd graph, folded by layer (viz.draw_graph(loss, depth=1))",
            viz.draw_graph(shown["step_loss"], depth=1, params=params).inline_html(),
        ),
        (
            "The inference model's Program (viz.draw_program)",
            viz.draw_program(shown["program"], show_vars=False).inline_html(),
        ),
        (
            "Dynamic to static, one transformer at a time (viz.show_to_static)",
            viz.show_to_static(shown["to_static"]).html(),
        ),
        (
            "The checkpoint's state dict (viz.draw_state_dict)",
            viz.draw_state_dict(paddle.load(shown["checkpoint"]), title="lenet.pdparams").inline_html(),
        ),
    ]
    sections.append(amp_tour_section(shown["net"]))
    sections.append(distributed_tour_section())
    sections.append(paddle_files_tour_section())
    last = h.train_epochs[-1] if h.train_epochs else {}
    facts = [
        ("test accuracy", f"{shown['accuracy']:.2%}"),
        ("after saving and reloading", f"{shown['reloaded_accuracy']:.2%}"),
        ("training accuracy, last epoch", f"{last.get('acc', float('nan')):.2%}"),
        ("training images / test images", f"{settings['train_samples']} / {settings['test_samples']}"),
        ("epochs, batch size", f"{settings['epochs']}, {settings['batch_size']}"),
        ("training time", f"{shown['times']['fit']:.1f} s"),
        ("FLOPs of one forward pass", f"{shown['flops']:,}"),
    ]
    rows = "".join(f"<tr><td>{html.escape(k)}</td><td><b>{html.escape(v)}</b></td></tr>" for k, v in facts)
    body = "".join(f"<h2>{html.escape(title)}</h2>\n<figure>{content}</figure>\n" for title, content in sections)
    page = (
        '<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>minipaddle tour</title>\n'
        f"<style>{_STYLE}</style>\n</head>\n<body>\n<h1>The minipaddle tour</h1>\n"
        '<p class="note">LeNet trained with <code>paddle.Model</code> on the digits minipaddle draws itself. '
        "Run it again with <code>make tour</code>.</p>\n"
        f'<table class="facts">{rows}</table>\n{body}</body>\n</html>\n'
    )
    atomic_write(path, page.encode("utf-8"))
