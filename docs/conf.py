"""Sphinx configuration of the minigrad documentation site.

Build it with ``make docs`` (``sphinx-build -W --keep-going -b html docs docs/_build/html``,
then the Russian and Chinese sites: ``scripts/translate_docs.py``); ``make test`` runs the same
builds, where any warning fails the suite.

Where the pages come from
    - the ``*.md`` pages beside this file (MyST Markdown);
    - the lessons ``notebooks/NN_*.ipynb`` and the released exercise sets
      ``notebooks/exercises/NN_*/NN_*.ipynb`` (the student versions, as ``nbgrader
      generate_assignment`` writes them), copied into ``docs/lessons/`` (same
      layout, gitignored, read-only) by ``copy_notebooks`` below each time Sphinx starts
      (the translated lessons in a Russian or Chinese build). Sphinx only reads documents
      inside its source folder. A symbolic link would avoid the copy, but Sphinx resolves
      links to their real path, so the notebooks' relative links to each other
      (``../../01_gradients.ipynb``) would then point out of the source folder and fail.
      An exercise set is published once its lesson exists (it links to it). The teacher's
      sources (``teacher/``, with solutions and hidden tests) are never pages: students
      read this site. A new lesson appears in the site by itself: the toctrees in
      lessons.md are globs, in course order.
    - the API reference, from the docstrings (``sphinx.ext.autodoc`` + ``napoleon``).

Notebooks are rendered from their stored outputs, never executed here: the outputs are
those of a real run, checked by ``pytest --nbval``. They are stored with their widget
state, so the widgets (the backward stepper's slider, ...) work in the rendered page,
driven by the ipywidgets HTML manager with no kernel; the drawings are laid out by Graphviz
compiled to WebAssembly, which the notebooks carry in their widget state. The JavaScript is
served from this site, not from a CDN, so the pages work offline:
``scripts/fetch_widget_js.sh`` fetches it from the npm registry (and copies anywidget's
from its package) into ``.venv/share/minigrad-js`` (``make docs`` runs it first).
"""

from __future__ import annotations

import filecmp
import os
import shutil
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
# Autodoc imports the code it documents; the editable install already provides it, this
# only makes a plain checkout work too.
sys.path.insert(0, str(ROOT))
# This site's own extensions (docs/_ext).
sys.path.insert(0, str(DOCS / "_ext"))

import site_languages  # noqa: E402 - found through the line above

project = "minigrad"
author = "the minigrad authors"
copyright = "the minigrad authors"  # noqa: A001 - Sphinx's name for this setting
release = version = "0.1.0"

extensions = [
    "myst_nb",  # MyST Markdown pages and notebooks (it loads myst_parser itself)
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    # A notebook whose widgets would show blank (views whose models the stored widget state
    # lacks) is a warning, so make docs fails on it: docs/_ext/widget_state_check.py.
    "widget_state_check",
    # The Russian and Chinese sites: the lessons in the site's language, a note on pages that
    # are in English, the language switcher (docs/_ext/site_languages.py).
    "site_languages",
]

# --------------------------------------------------------------------------- sources
NOTEBOOKS = ROOT / "notebooks"
LESSONS = DOCS / "lessons"


def page_notebooks() -> set[Path]:
    """The notebooks that are pages, relative to notebooks/: every lesson, and the released
    (student) version of each lesson's exercise set once that lesson exists (an exercise
    set links to its lesson). Solutions stay in teacher/, which is never published."""
    lessons = {path.name[:2]: path for path in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")}
    exercises = (NOTEBOOKS / "exercises").glob("[0-9][0-9]_*/[0-9][0-9]_*.ipynb")
    pages = [*lessons.values(), *(path for path in exercises if path.name[:2] in lessons)]
    return {path.relative_to(NOTEBOOKS) for path in pages}


def copy_notebooks(language: str = "en") -> None:
    """Mirror the page notebooks into docs/lessons: copy what is new or changed, delete
    copies whose notebook is gone. ``copy2`` keeps each notebook's modification time, so
    Sphinx re-renders only the notebooks that changed. A Russian or Chinese site gets the
    translated lessons, ``notebooks/<language>/``, where they are finished
    (``site_languages.lesson_source``); each language has its own doctrees, so switching the
    copies between the builds of two languages re-renders nothing that did not change."""
    wanted = page_notebooks()
    for relative in wanted:
        source, copy = site_languages.lesson_source(relative, language), LESSONS / relative
        if copy.exists() and filecmp.cmp(source, copy, shallow=False):
            continue
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.unlink(missing_ok=True)
        shutil.copy2(source, copy)
        copy.chmod(0o444)  # read-only: an edit belongs in notebooks/, not here
    for copy in LESSONS.rglob("*.ipynb"):
        if copy.relative_to(LESSONS) not in wanted:
            copy.unlink()


def setup(app) -> None:
    # The language is known once -D language=... is applied: at config-inited, not while this
    # file runs.
    app.connect("config-inited", lambda app, config: copy_notebooks(config.language))


source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"
# Only these are pages: a whitelist, so that a stray file under docs/ (a scratch notebook
# left in docs/lessons, say) does not become an orphan page that fails the -W build.
include_patterns = [
    "*.md",
    "api/*.md",
    "lessons/[0-9][0-9]_*.ipynb",
    "lessons/exercises/[0-9][0-9]_*/[0-9][0-9]_*.ipynb",
]
# Sphinx applies exclude_patterns to the static files it copies as well: the widget
# renderer's package holds a source map and two other builds of the same bundle that the
# pages never load (10 MB of the 18).
exclude_patterns = [
    "_build",
    "**/.ipynb_checkpoints",
    "html-manager/dist/embed.js",
    "html-manager/dist/embed.js.map",
    "html-manager/dist/embed.js.LICENSE.txt",
    "html-manager/dist/libembed-amd.js",
]

# --------------------------------------------------------------------------- notebooks
nb_execution_mode = "off"  # render the stored outputs; nbval checks they are real
nb_merge_streams = True  # print() calls in one cell show as one block, as in Jupyter
myst_enable_extensions = ["colon_fence", "deflist", "dollarmath"]
myst_heading_anchors = 3

# The JavaScript the pages need, served from this site's _static folder so that they work
# offline: the ipywidgets HTML manager (scripts/fetch_widget_js.sh) and MathJax
# (scripts/fetch_mathjax.sh), both from the npm registry. `make docs` runs the scripts and
# sets these variables to the folders they filled (in the venv it uses).
SHARE = ROOT / ".venv" / "share"
WIDGET_JS = Path(os.environ.get("MINIGRAD_WIDGET_JS", SHARE / "minigrad-js"))
MATHJAX = Path(os.environ.get("MINIGRAD_MATHJAX", SHARE / "minigrad-mathjax"))
for folder, needed, script in [
    (WIDGET_JS, "html-manager/dist/embed-amd.js", "fetch_widget_js.sh"),
    (WIDGET_JS, "anywidget.js", "fetch_widget_js.sh"),
    (MATHJAX, "mathjax/tex-mml-chtml.js", "fetch_mathjax.sh"),
]:
    if not (folder / needed).is_file():
        raise RuntimeError(f"{folder / needed} is missing: run scripts/{script} (make docs does)")

# Paths relative to _static, loaded in this order on each page that has widget state.
nb_ipywidgets_js = {
    "require.js": {},
    "widget_assets_path.js": {},  # font paths and a MathJax 3 bridge: see the file
    # No data-jupyter-widgets-cdn: the lessons use ipywidgets' own controls, which the
    # bundle contains, and anywidget's module (the drawings, with Graphviz in their widget
    # state), which widget_assets_path.js maps to _static/anywidget.js: no CDN is needed.
    "html-manager/dist/embed-amd.js": {},
}
mathjax_path = "mathjax/tex-mml-chtml.js"
# MathJax 3's settings (Sphinx 9 assumes MathJax 4). Not empty, so that myst-parser adds
# its own (which HTML classes to typeset) here too, rather than in a MathJax 4 config.
mathjax3_config = {"startup": {"typeset": True}}

# --------------------------------------------------------------------------- API reference
autodoc_default_options = {"members": True, "member-order": "bysource"}
autodoc_typehints = "description"  # types beside each parameter, signatures stay short
autodoc_class_signature = "separated"
napoleon_google_docstring = True
napoleon_numpy_docstring = False

# --------------------------------------------------------------------------- HTML
html_theme = "furo"
html_title = "minigrad"
html_static_path = ["_static", str(WIDGET_JS), str(MATHJAX)]
html_css_files = ["minigrad.css"]
html_show_sourcelink = False  # the "source" of a lesson is the notebook link on its page
templates_path = ["_templates"]
# Furo's sidebar, with the language switcher under the site's name.
html_sidebars = {
    "**": [
        "sidebar/brand.html",
        "sidebar/languages.html",
        "sidebar/search.html",
        "sidebar/scroll-start.html",
        "sidebar/navigation.html",
        "sidebar/scroll-end.html",
    ]
}

# --------------------------------------------------------------------------- languages
# English is the source; scripts/translate_docs.py builds the site again with
# -D language=ru and -D language=zh_CN (docs/translating_docs.md). One catalog per page, as
# each lesson has one: a page is "not started" in a language until its catalog exists.
locale_dirs = ["locale/"]
gettext_compact = False
gettext_uuid = False
# A translated page shows a picture's version in its language, images/draw.ru.png for
# images/draw.png, where one exists: the widgets' screenshots are made in each language by
# the scripts that make the English ones (scripts/widget_screenshots.py --language ru,
# scripts/front_page_image.py --language ru). Sphinx's default pattern, said here because the
# site relies on it (tests/test_docs_translations.py checks each translated page's pictures).
figure_language_filename = "{root}.{language}{ext}"
# A code block is an entry too when its comments have words to translate: as in the lessons,
# the translation changes its comments and nothing else. scripts/translate_docs.py extracts
# them; site_languages.translate_code_blocks puts them in place (why not Sphinx: see there).
