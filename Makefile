# The two quick-start commands: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
GAME ?= quiz
#: the game contract and every engine: typed strictly
STRICT := games/base.py games/panels.py games/arbitration.py games/humans.py games/i18n.py games/files.py games/rules_version.py $(wildcard games/*/engine.py) $(wildcard games/*/strip.py) games/quiz/core.py $(wildcard games/quiz/modes/*.py)

.PHONY: demo test lint setup clean i18n

# progress for the minute the first set-up takes: each step said, pip's own lines for the packages
$(BIN)/buzzerbox: pyproject.toml
	@echo "[1/3] making the virtual environment $(VENV) ..."
	$(PYTHON) -m venv $(VENV)
	@echo "[2/3] updating pip ..."
	$(BIN)/pip install --quiet --upgrade pip
	@echo "[3/3] installing the buzzer box and its packages (pygame, gpiozero, test tools; about a minute the first time) ..."
	$(BIN)/pip install --progress-bar on -e '.[dev]' | grep --line-buffered -E '^(Collecting|Installing|Successfully|ERROR)' ; \
		$(BIN)/python -c "import controller.cli, pygame, gpiozero" || { echo "set-up failed: see pip's messages above"; exit 1; }
	@echo "set-up done: $(VENV)"
	touch $@

setup: $(BIN)/buzzerbox

demo: setup
	@echo "starting the $(GAME) demo (Ctrl+C or Esc stops it; \`$(BIN)/buzzerbox demo --help\` lists the games)"
	$(BIN)/buzzerbox demo $(GAME)

test: setup
	@if [ -f tests/firmware/mpy/package.json ] && command -v npm >/dev/null; then \
		npm ci --silent --prefix tests/firmware/mpy; \
	else echo "make test: npm not found: the MicroPython firmware tests will be SKIPPED (apt-get install nodejs npm)"; fi
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/mypy
	$(BIN)/mypy --strict --follow-imports=silent $(STRICT)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m pytest -n auto --dist loadfile
	@echo "make test: the tests over every game, once more for the English-only toy games (tests/toy) as if in games/"
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m pytest -n auto --dist loadfile --toy-games

# the catalogues: extract every marked text, update games/locale/*/LC_MESSAGES/buzzerbox.po, compile the .mo
i18n: setup
	$(BIN)/python tools/i18n.py

clean:
	rm -rf $(VENV) .pytest_cache
