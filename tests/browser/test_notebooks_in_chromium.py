"""The executed notebooks as a person sees them: exported to HTML with their widget state, opened in headless
Chromium with no network, every graph SVG and every widget checked on the page, screenshots saved.

Chromium is Debian's (/usr/bin/chromium; `make test` installs it when it runs as root), driven by Playwright
with `executable_path`. The widget renderer is a local copy (widget_assets.py), and every request that is not
a local file is refused, so a page that needs the network fails. Screenshots: build/screenshots/<notebook>.png.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.notebooks.running import NAMES, ROOT, executed, outputs

from .widget_assets import ensure_widget_assets

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SHOTS = ROOT / "build" / "screenshots"
PAGES = ROOT / "build" / "notebooks-html"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="Debian's chromium is not installed and could not be (not root): sudo apt-get install -y chromium",
)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def export(nb, name: str) -> Path:
    """The executed notebook as an HTML page that loads the widget renderer from build/widget-assets/."""
    from nbconvert import HTMLExporter

    assets = ensure_widget_assets()
    PAGES.mkdir(parents=True, exist_ok=True)
    path = PAGES / f"{name.replace('/', '__')}.html"
    exporter = HTMLExporter(template_name="lab", widget_renderer_url=f"../{assets.name}/embed.js",
                            require_js_url="", mathjax_url="")  # fmt: skip
    body, _ = exporter.from_notebook_node(nb)
    path.write_text(body.replace('<script src=""></script>', ""), encoding="utf-8")
    return path


def open_page(browser, path: Path):
    """A page showing `path`, every request not for a local file refused (and noted in page.blocked)."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.blocked, page.errors = [], []

    def route(r):
        if r.request.url.startswith(("file://", "data:")):
            r.continue_()
        else:
            page.blocked.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(path.as_uri())
    return page


def _check_svgs(page, expected: int) -> None:
    """Every SVG output (nbconvert writes each as an <img> of the SVG) decoded and drawn at a real size."""
    drawn = page.eval_on_selector_all(
        ".jp-RenderedSVG img, .jp-RenderedSVG svg",
        """els => els.map(e => {
            const r = e.getBoundingClientRect();
            return [e.tagName !== 'IMG' || (e.complete && e.naturalWidth > 0), r.width, r.height];
        })""",
    )
    assert len(drawn) == expected, f"{len(drawn)} SVG pictures on the page, the notebook made {expected}"
    assert all(ok and w > 20 and h > 20 for ok, w, h in drawn), f"an SVG did not draw: {drawn}"


def _check_widgets(page, expected: int) -> None:
    page.wait_for_function(f"document.querySelectorAll('.widget-subarea > .jupyter-widgets').length >= {expected}",
                           timeout=30000)  # fmt: skip
    heights = page.eval_on_selector_all(".widget-subarea > .jupyter-widgets", "els => els.map(e => e.offsetHeight)")
    assert len(heights) == expected and all(h > 20 for h in heights), f"widgets drawn: {heights}"


# ---- what a person does with the widgets of some notebooks -------------------------------------------------------


def _shown_text(locator) -> str:
    """The text of the HTML widgets inside `locator` that are on screen (not in a hidden tab or stack page)."""
    return locator.evaluate(
        "el => Array.from(el.querySelectorAll('.widget-html-content'))"
        ".filter(e => e.offsetParent !== null).map(e => e.innerText).join('\\n')"
    )


def _use_the_inspector(page) -> None:
    inspector = page.locator(".widget-tab").first
    dropdown = inspector.locator("select").first
    label = dropdown.locator("option").nth(4).inner_text().replace("\xa0", " ")  # the widget shows spaces as nbsp
    assert label not in _shown_text(inspector)
    dropdown.select_option(index=4)
    page.wait_for_timeout(200)
    assert label in _shown_text(inspector)  # the picked tensor's panel is the one shown
    inspector.get_by_text("Step backward").click()
    assert "before backward" in _shown_text(inspector)
    slider = inspector.locator(".widget-slider .noUi-handle, .widget-slider [role=slider]").first
    slider.focus()
    slider.press("ArrowRight")
    slider.press("ArrowRight")
    page.wait_for_timeout(300)
    assert "step 2 of" in _shown_text(inspector)  # the replay moved two gradients on
    inspector.screenshot(path=str(SHOTS / "02_autograd-inspector-step2.png"))


def _unfold_the_layer_tree(page) -> None:
    tree = page.locator(".widget-accordion").first
    head = tree.get_by_text("head: Sequential").first
    assert not tree.get_by_text("2: Linear").first.is_visible()  # folded: the section's rows are hidden
    head.click()
    page.wait_for_timeout(200)
    assert tree.get_by_text("2: Linear").first.is_visible()
    tree.screenshot(path=str(SHOTS / "03_layers-layer-tree-open.png"))


INTERACTIONS = {"02_autograd": _use_the_inspector, "03_layers": _unfold_the_layer_tree}


@pytest.mark.parametrize("name", NAMES)
def test_notebook_renders_in_chromium(browser, name):
    nb = executed(name)
    page = open_page(browser, export(nb, name))
    try:
        SHOTS.mkdir(parents=True, exist_ok=True)
        views = len(outputs(nb, "application/vnd.jupyter.widget-view+json"))
        if views:
            _check_widgets(page, views)
        _check_svgs(page, len(outputs(nb, "image/svg+xml")))
        page.screenshot(path=str(SHOTS / f"{name.replace('/', '__')}.png"), full_page=True)
        if name in INTERACTIONS:
            INTERACTIONS[name](page)
        assert page.errors == [], f"JavaScript errors: {page.errors}"
        assert page.blocked == [], f"the page tried to reach the network: {page.blocked}"
    finally:
        page.close()
