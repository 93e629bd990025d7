# minigrad: `make lab` opens the lessons, `make test` runs the whole suite.
# Both first run scripts/bootstrap.sh (venv, pip install -e '.[lab]' for make lab, adding the
# developer's and teacher's extras [dev,course] for make test), which is quick when nothing changed.
#
# Variables (make VAR=... or environment):
#   PYTHON       Python used to create the venv             (python3)
#   VENV         the virtual environment                    (.venv)
#   LAB_ARGS     extra arguments for jupyter lab            e.g. LAB_ARGS="--no-browser --port 8899"
#   PYTEST_ARGS  extra arguments for pytest                 e.g. PYTEST_ARGS="-k backward -x"
#   NOTEBOOK     the notebook make page exports               e.g. NOTEBOOK=notebooks/03_*.ipynb
#   PAGES        where make page writes                       (build/pages)
#   CLASS        the course folder make class-variant writes  (teacher/class)
#   CLASS_LANG   the language of that class: ru or zh_CN      (English; then teacher/LANG/class)
#   EXERCISES    the released sets make student-release ships (notebooks/exercises)
#   MINIGRAD_REQUIRE_ALL=1  install everything (torch, Chromium) and fail on any skip (CI)
#   MINIGRAD_BROWSER=1      also install Chromium for the browser tests

PYTHON ?= python3
VENV ?= .venv
LAB_ARGS ?=
PYTEST_ARGS ?=
NOTEBOOK ?=
PAGES ?= build/pages

BIN := $(VENV)/bin
SANITIZE := notebooks/nbval-sanitize.cfg
# --nbval-current-env: notebooks run on this venv's Python, whatever kernel they name.
# LANGUAGE=en: the stored outputs of the English lessons and the doctests are English,
# whatever the developer's locale (the widgets would otherwise speak it: widgets/i18n.py).
PYTEST = LANGUAGE=en $(BIN)/python -m pytest tests notebooks teacher/source $(wildcard teacher/*/source) minigrad widgets --doctest-modules \
	--nbval --nbval-current-env \
	--nbval-sanitize-with $(SANITIZE) $(PYTEST_ARGS)

.PHONY: lab test docs docs-languages bootstrap lint format clean bench bench-quick lite page student-release \
	catalogs labextension class-variant

# Open the lessons in JupyterLab, in a student's environment (bootstrap.sh lab: the lessons'
# needs, no developer or teacher tool). The landing page is the first of these that exists,
# made the server's default URL, so the browser it opens and the link it prints both land
# there, not on the Launcher; a Markdown landing page opens as its preview (bootstrap's
# Jupyter settings), so its links open the lessons. The course's notebooks are trusted first, on every run: JupyterLab shows
# a notebook's stored drawings and widgets only when it is trusted. Only a notebook whose
# content is what the course shipped is trusted, never one for its name: its SHA-256 must be
# in notebooks/trusted.sha256 (after changing a lesson: scripts/trusted_notebooks.py refresh).
lab:
	@VENV="$(VENV)" PYTHON="$(PYTHON)" bash scripts/bootstrap.sh lab
	@$(BIN)/python scripts/trusted_notebooks.py trust
	@landing=""; \
	for f in notebooks/index.ipynb notebooks/00_index.ipynb notebooks/README.md; do \
	    if [ -e "$$f" ]; then landing="$$f"; break; fi; \
	done; \
	root=""; if [ "$$(id -u)" = 0 ]; then root="--allow-root"; fi; \
	open="--LabApp.default_url=/lab/tree/$${landing#notebooks/}"; \
	echo "$(BIN)/jupyter lab --notebook-dir=notebooks $$root $$open $(LAB_ARGS)"; \
	exec $(BIN)/jupyter lab --notebook-dir=notebooks $$root $$open $(LAB_ARGS)

# A lesson (or any notebook) as a web page that steps with no kernel and no network, from its
# stored outputs and widget state: make page NOTEBOOK=notebooks/03_backward_step_by_step.ipynb
# writes build/pages/NAME.html with the widgets' JavaScript beside it (scripts/export_page.py).
page:
	@test -n "$(NOTEBOOK)" || { echo "usage: make page NOTEBOOK=notebooks/NN_name.ipynb [PAGES=build/pages]" >&2; exit 2; }
	@VENV="$(VENV)" PYTHON="$(PYTHON)" bash scripts/bootstrap.sh lab
	$(BIN)/python scripts/export_page.py "$(NOTEBOOK)" --out "$(PAGES)"

# The course's JupyterLab extension (widgets/labextension/: a saved lesson's drawings come back
# when the widget manager loses its restore race, or show their stored picture), rebuilt from
# its sources with @jupyterlab/builder from the npm registry (into build/, never globally).
# The build is committed; make lab, make test and the Binder image install it by copying
# (scripts/jupyter_settings.py). `scripts/build_labextension.sh --check` compares.
labextension: bootstrap
	@VENV="$(VENV)" bash scripts/build_labextension.sh

# Lint, format check, the layer contracts (import-linter), then ONE pytest run over the tests and the notebooks (nbval strict).
# pytest's exit 5 means it collected nothing: that is a failure, not a pass.
test: bootstrap
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(MAKE) --no-print-directory docs
	@echo "$(PYTEST)"; \
	$(PYTEST); rc=$$?; \
	if [ $$rc -eq 5 ]; then \
	    echo "make test: FAILED: pytest collected no tests (exit 5); an empty suite is not a pass." >&2; \
	fi; \
	exit $$rc

# The documentation site, into docs/_build/html (open index.html; no server needed), then
# its Russian and Chinese versions (docs-languages). Warnings are errors. The scripts fetch
# the JavaScript the pages serve themselves (widgets, MathJax) from the npm registry, once.
DOCS_JS = MINIGRAD_WIDGET_JS="$(abspath $(VENV))/share/minigrad-js" \
	MINIGRAD_MATHJAX="$(abspath $(VENV))/share/minigrad-mathjax"
docs: bootstrap
	@VENV="$(VENV)" bash scripts/fetch_widget_js.sh
	@VENV="$(VENV)" bash scripts/fetch_mathjax.sh
	$(DOCS_JS) $(BIN)/sphinx-build -W --keep-going -b html docs docs/_build/html
	@$(MAKE) --no-print-directory docs-languages

# The site in Russian and Chinese (docs/translating_docs.md), into docs/_build/html/ru and
# docs/_build/html/zh_CN: the English pages' texts extracted (Sphinx's gettext builder),
# merged into each page's catalog in docs/locale (sphinx-intl update), each language built.
docs-languages: bootstrap
	@VENV="$(VENV)" bash scripts/fetch_widget_js.sh
	@VENV="$(VENV)" bash scripts/fetch_mathjax.sh
	$(DOCS_JS) $(BIN)/python scripts/translate_docs.py all

bootstrap:
	@VENV="$(VENV)" PYTHON="$(PYTHON)" bash scripts/bootstrap.sh

# The translated lessons (docs/translating_lessons.md): notebooks/<lang>/ built from the
# English lessons and the catalogs in translations/, each run so that its stored outputs are
# real (only what changed runs again); the translated exercise sets (docs/translating_exercises.md):
# teacher/<lang>/source built, and released by nbgrader into notebooks/<lang>/exercises (only
# what changed); then the manifest of what make lab trusts refreshed.
.PHONY: translations
translations: bootstrap
	$(BIN)/python scripts/translate_notebooks.py build --all
	$(BIN)/python scripts/translate_exercises.py build
	$(BIN)/python scripts/trusted_notebooks.py refresh

# A JupyterLite site of the lessons (Python in the browser) into build/lite: see
# docs/jupyterlite.md for what works there and what does not yet.
lite: bootstrap
	VENV="$(VENV)" bash scripts/build_lite.sh

# What a teacher hands to students outside a JupyterHub, as one archive,
# build/student-release.zip: the lessons, the exercise sets as released in
# notebooks/exercises/, this project's wheel and a README for students; no answer key
# (docs/teachers.md, "What students receive").
# EXERCISES=teacher/class/release ships a class's own sets instead (make class-variant).
EXERCISES ?= notebooks/exercises
student-release: bootstrap
	$(BIN)/python scripts/student_release.py --exercises "$(EXERCISES)"

# A class's own exercise sets (docs/teachers.md, "Class variants"): numbers drawn from the
# class's secret ($MINIGRAD_CLASS_SECRET, else teacher/class_secret, made on first use; both
# stay out of git), the hidden tests' values and the fingerprints computed here, written
# into the course folder teacher/class/ (CLASS=DIR for another), where nbgrader then runs.
# CLASS_LANG=ru (or zh_CN): the class is taught in that language, with the same numbers and
# key, in teacher/ru/class/. (Not LANG, which is the shell's locale.)
CLASS_LANG ?=
CLASS ?= $(if $(CLASS_LANG),teacher/$(CLASS_LANG)/class,teacher/class)
class-variant: bootstrap
	$(BIN)/python scripts/class_variant.py --out "$(CLASS)" $(if $(CLASS_LANG),--lang $(CLASS_LANG))

# minigrad beside torch, micrograd, mygrad and autograd (installed here if missing):
# prints medians and ratios, writes bench/results.json. About 4 minutes.
bench: bootstrap
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python bench/run.py

# The benchmark's smoke run, under two minutes (CI runs it after make test): the same ratios
# from fewer rounds and smaller W4 graphs, and callgrind's instruction counts for W1 and W2
# (when valgrind is installed). It fails when two libraries' gradients differ or one crashes,
# never on a ratio: timings on a shared machine are noise. Writes build/bench-quick.json.
bench-quick: bootstrap
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	@mkdir -p build
	$(BIN)/python bench/run.py --quick --json build/bench-quick.json

# Developing: lint only / apply the formatter and the safe lint fixes.
lint: bootstrap
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

format: bootstrap
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# The widgets' and the course checks' catalogs (docs/translating.md): extract every word from
# widgets/ and minigrad_course/ into their templates, then merge each into its Russian and Chinese catalogs (new entries arrive empty,
# changed ones fuzzy: the catalog test fails until a translator has seen them). PYTHONPATH=.:
# babel.cfg's extractor for the ops' formulas is this checkout's widgets._formulas.
catalogs: bootstrap
	PYTHONPATH=. $(BIN)/pybabel extract -F babel.cfg -k N_ -k plot_gettext -c TRANSLATORS: --add-location=file --sort-by-file \
	    --project=minigrad --copyright-holder="minigrad contributors" -o widgets/locale/widgets.pot .
	$(BIN)/pybabel update -i widgets/locale/widgets.pot -d widgets/locale -D widgets \
	    --ignore-obsolete --previous
	$(BIN)/pybabel extract -F babel_course.cfg -c TRANSLATORS: --add-location=file --sort-by-file \
	    --project=minigrad --copyright-holder="minigrad contributors" \
	    -o minigrad_course/locale/minigrad_course.pot .
	$(BIN)/pybabel update -i minigrad_course/locale/minigrad_course.pot -d minigrad_course/locale \
	    -D minigrad_course --ignore-obsolete --previous

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis build dist *.egg-info
