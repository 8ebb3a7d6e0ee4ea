# The README's quick start: `make run` and `make test`.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install run test test-clocks schemathesis-deep lint format check-deploy vectors clean

$(PY):
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Python 3.11 is needed ($(PYTHON))"; exit 1; }
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(PY) pyproject.toml
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

PORT ?= 8000
run: install
	DEBUG=true $(PY) manage.py migrate --no-input
	DEBUG=true $(PY) manage.py demo_room
	DEBUG=true $(PY) manage.py demo_jackpots
	DEBUG=true $(PY) manage.py simulate_night --short
	DEBUG=true $(PY) manage.py serve --bind 127.0.0.1:$(PORT)

test: install
	$(PY) tests/suite.py

# The suite (without the slow test) under libfaketime at each moment that breaks
# date-bound code, on an embedded PostgreSQL that shares the moved clock:
# `make test-clocks MOMENTS=new-year` runs one (`python .ci/moments.py` lists them).
MOMENTS ?= --all
test-clocks: install
	$(PY) .ci/moments.py $(MOMENTS)

# schemathesis over every operation with its examples, coverage and fuzzing phases,
# 50 examples an operation, as a manager and as a terminal; not in `make test`
# (tests/security/test_schemathesis_deep.py). REPORT= names a file for the counts.
REPORT ?= schemathesis-deep.json
schemathesis-deep: install
	SCHEMATHESIS_DEEP=1 SCHEMATHESIS_REPORT=$(REPORT) $(PY) -m pytest \
		tests/security/test_schemathesis_deep.py -q --timeout 1800

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

format: install
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

check-deploy: install
	DEBUG=false SECRET_KEY=$$($(PY) -c 'import secrets;print(secrets.token_urlsafe(64))') \
		ALLOWED_HOSTS=cardroom.example $(PY) manage.py check --deploy --fail-level WARNING

vectors: install
	$(PY) ../shared/tools/check_vectors.py --python $(PY)

clean:
	rm -rf $(VENV) staticfiles
