# The two quick-start commands: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
GAME ?= quiz
#: the game contract and every engine: typed strictly
STRICT := games/base.py games/arbitration.py games/humans.py games/i18n.py $(wildcard games/*/engine.py)

.PHONY: demo test lint setup clean i18n

$(BIN)/buzzerbox: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

setup: $(BIN)/buzzerbox

demo: setup
	$(BIN)/buzzerbox demo $(GAME)

test: setup
	@if [ -f tests/firmware/mpy/package.json ] && command -v npm >/dev/null; then \
		npm ci --silent --prefix tests/firmware/mpy; \
	else echo "make test: npm not found: the MicroPython firmware tests will be SKIPPED (apt-get install nodejs npm)"; fi
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/mypy
	$(BIN)/mypy --strict --follow-imports=silent $(STRICT)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m pytest

# the catalogues: extract every marked text, update games/locale/*/LC_MESSAGES/buzzerbox.po, compile the .mo
i18n: setup
	$(BIN)/python tools/i18n.py

clean:
	rm -rf $(VENV) .pytest_cache
