# Two commands for a fresh machine: `make run` and `make test`. Both set themselves up.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: run test check lint contracts typecheck qtfree pytest pytest-fast bench clean dist smoke icons sdist-check

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "d100gui needs Python 3.11 or newer")'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	$(PY) -m compileall -q -j 0 d100gui  # bytecode once, here: `make run` does not compile at each start
	touch $(STAMP)

# On Linux, first check that Qt's X11 plugin finds its system libraries (names the packages if not).
run: $(STAMP)
	$(PY) packaging/check_qt_deps.py
	$(PY) -m d100gui

test: $(STAMP) lint contracts typecheck qtfree pytest

# The fast lane while changing code (docs/architecture.md, "Contributing"): the same lint, contracts, types
# and Qt-free check, then every test not marked `slow` (pyproject.toml's markers), in under a minute on
# 2 cores (pytest-xdist, -n auto). mypy keeps its incremental cache (.mypy_cache). `make test` still runs everything.
check: $(STAMP) lint contracts typecheck qtfree pytest-fast

lint: $(STAMP)
	$(VENV)/bin/ruff check d100gui tests packaging/check_engine_qt_free.py packaging/check_qt_deps.py packaging/smoke.py packaging/make_icons.py packaging/macos_document_types.py packaging/import_contracts.py
	$(VENV)/bin/ruff format --check d100gui tests packaging/check_engine_qt_free.py packaging/check_qt_deps.py packaging/smoke.py packaging/make_icons.py packaging/macos_document_types.py packaging/import_contracts.py

# import-linter: the engine imports no Qt, storage or ui; ui feature folders stay apart (pyproject.toml)
contracts: $(STAMP)
	PYTHONPATH=packaging $(VENV)/bin/lint-imports --no-cache  # packaging/import_contracts.py: the runtime_layers type

# mypy with the pydantic plugin: strict on engine/ and storage/, looser on ui/ (pyproject.toml)
typecheck: $(STAMP)
	$(VENV)/bin/mypy

qtfree: $(STAMP)
	$(PY) packaging/check_engine_qt_free.py

pytest: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q -p no:cacheprovider

pytest-fast: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q -p no:cacheprovider -m "not slow" -n auto

bench: $(STAMP)
	for b in odds autosave map startup open actions memory dice_history window stats long_session; do QT_QPA_PLATFORM=offscreen $(PY) tests/benchmarks/bench_$$b.py || status=1; done; exit $${status:-0}

# The one-folder app (dist/d100gui/, about 1 min and 185 MB): PyInstaller comes from the `dist` extra,
# installed here and not by `make test`. `make smoke` builds it, then runs it offscreen (packaging/smoke.py).
DIST_STAMP := $(VENV)/.dist-stamp

$(DIST_STAMP): $(STAMP) pyproject.toml
	$(PY) -m pip install --quiet -e '.[dev,dist]'
	touch $(DIST_STAMP)

dist: $(DIST_STAMP)
	$(VENV)/bin/pyinstaller --noconfirm --clean --log-level WARN --distpath dist --workpath build/pyinstaller packaging/d100gui.spec

smoke: dist
	$(PY) packaging/smoke.py dist/d100gui

# Before a release: the sdist holds every file git tracks (check-manifest, from the dev extra), then the
# sdist and wheel are built into dist/ and, if twine is installed, checked as PyPI would (`twine check --strict`).
sdist-check: $(STAMP)
	$(VENV)/bin/check-manifest --no-build-isolation
	rm -f dist/d100gui-*.tar.gz dist/d100gui-*.whl
	$(PY) -m build --no-isolation --outdir dist .  # `build` comes with check-manifest
	test ! -x $(VENV)/bin/twine || $(VENV)/bin/twine check --strict dist/d100gui-*

# After editing packaging/d100gui.svg: the PNG sizes, .ico and .icns in packaging/icons/ (commit them)
icons: $(STAMP)
	$(PY) packaging/make_icons.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .import_linter_cache *.egg-info dist build
