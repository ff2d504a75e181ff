# cl2c: `make run` translates and runs the bundled examples; `make test` runs the tests.
# Both set up a virtual environment in .venv first (Python 3.10+, a C compiler).

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip --disable-pip-version-check -q
# Parallel test workers: the machine's cores.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: setup install run test docs test-intel test-pyopencl test-cts test-ulp test-ulp-exhaustive check-stress check-piglit check-cost fuzz bench bench-compilers bench-quick clean

# Runtime dependencies only (what `make run` needs); the test and docs extras on top.
$(VENV)/.runtime: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install .
	touch $@

$(VENV)/.deps: $(VENV)/.runtime
	$(PIP) install '.[test,docs,dask]'
	touch $@

setup: $(VENV)/.deps

# The package is installed for real (not editable), so that tests see exactly what a
# user's `pip install .` gives; again whenever a file of it changed, and only then (a
# second `make run` starts at once).
PACKAGE_FILES := pyproject.toml setup.py $(shell find cl2c templates clruntime -type f \
	-not -name '*.pyc' -not -path '*/__pycache__/*' 2>/dev/null)

$(VENV)/.installed: $(VENV)/.runtime $(PACKAGE_FILES)
	$(PIP) install --no-deps --force-reinstall --no-build-isolation .
	touch $@

install: setup $(VENV)/.installed

run: $(VENV)/.installed
	$(PY) examples/run_examples.py
	@echo "The cl2c command is $(VENV)/bin/cl2c (or, after 'source $(VENV)/bin/activate', cl2c)."

test: install docs
	cd tests && ../$(VENV)/bin/pytest -n $(JOBS) -q -p no:cacheprovider --durations=15

# The documentation site (docs/, Sphinx + MyST) into build/docs, warnings as errors; its
# pages' code blocks run in tests/test_docs.py. Open build/docs/index.html.
docs: install
	$(VENV)/bin/sphinx-build -W --keep-going -q -b html docs build/docs

# The differential tests marked `intel`: the OpenCL C 2.0/3.0 constructs this PoCL lacks
# (globals shared between kernels, the generic address space's functions, sub-groups,
# work-group functions, ...) against Intel's OpenCL CPU runtime, installed as for the
# bench. Opt-in: `make test` skips them (tests/conftest.py, CL2C_INTEL).
test-intel: install $(VENV)/.bench
	cd tests && CL2C_INTEL=1 ../$(VENV)/bin/pytest -n $(JOBS) -q -p no:cacheprovider -m intel

# PyOpenCL's own tests (its sdist's test/, fetched on first use: tests/pyopencl_suite.py)
# on the cl2c platform, whole files, with PyOpenCL's binary cache and without it
# (PYOPENCL_NO_CACHE=1): fails on a failure not in tests/pyopencl_known_failures.txt or
# on a listed test that passes (opt-in: long; `make test` runs a sample).
PYOPENCL_FILES ?=
test-pyopencl: install
	cd tests && ../$(PY) pyopencl_suite.py -j $(JOBS) $(PYOPENCL_FILES)

# The Khronos conformance suite (OpenCL-CTS) on the cl2c platform. Its sources are on no
# registry: CTS_DIR names a checkout (v2023-05-16-00 builds against Debian 12's OpenCL
# headers); tests/cts_suite.py builds its CPU suites into build/cts (CMake, Ninja) and runs
# each test in a process of its own, pass/fail per suite (opt-in: tens of minutes; without
# CTS_DIR it says what to give and fails). CTS_SUITES="api basic" for fewer.
CTS_DIR ?=
CTS_SUITES ?=
test-cts: install
	$(PY) tests/cts_suite.py $(if $(CTS_DIR),--cts-dir $(CTS_DIR)) -j $(JOBS) \
		$(if $(CTS_SUITES),--suites $(CTS_SUITES))

# The math builtins against their ULP bounds on a large random sample (20000 arguments per
# function and type; CL2C_ULP_SAMPLE=N for another size), with the table of worst errors.
ULP_SAMPLE ?= 20000
test-ulp: install
	cd tests && CL2C_ULP_SAMPLE=$(ULP_SAMPLE) CL2C_ULP_REPORT=1 ../$(VENV)/bin/pytest -q -s \
		-p no:cacheprovider test_math_ulp.py

# cl2c's own float exp, exp2, exp10, log, log2, log10 (clruntime's math.h) on all 2^32
# inputs against the C library's double functions (opt-in: a few CPU minutes each).
test-ulp-exhaustive: install
	$(PY) bench/exhaustive_ulp.py -j $(JOBS)

# The kernel cache under 8 processes x 20 rounds of concurrent builds and damage (opt-in:
# minutes; `make test` runs a small version).
check-stress: install
	cd tests && CL2C_STRESS=1 ../$(VENV)/bin/pytest -q -s -p no:cacheprovider test_cache_stress.py

# Checking mode (-cl2c-check) over piglit's whole corpus: a finding fails its file
# (opt-in: the corpus built again with checks; `make test` runs a sample).
check-piglit: install
	cd tests && CL2C_CHECK=1 ../$(VENV)/bin/python piglit/runner.py -j $(JOBS)

# What checking mode costs on the bench kernels and the GPU-style corpus, and what it
# finds in them (the lecture's V6 races on its __local row, as printed).
check-cost: install
	$(PY) bench/check_cost.py
	-$(PY) bench/check_cost.py --corpus gpu

# The fuzz corpus (opt-in, 3 to 10 minutes on 2 cores): 8 mutants of every kernel of the
# project and of piglit, each translated under a timeout; `make test` runs a seeded subset
# (tests/test_fuzz.py). FUZZ_FLAGS=--compile also compiles each translation.
fuzz: install
	cd tests && ../$(PY) -m fuzz --full -j $(JOBS) $(FUZZ_FLAGS)

# The bench's extras (matplotlib for the plot, PyOpenCL with PoCL) and Intel's OpenCL CPU
# runtime, 270 MB, only here (intel-cmplr-lib-rt: a dependency intel-opencl-rt does not
# declare). Where it cannot be installed, the bench runs without the Intel column;
# bench.py finds its libintelocl.so and points the ICD loader at it ($$OCL_ICD_VENDORS).
$(VENV)/.bench: $(VENV)/.runtime
	$(PIP) install '.[bench]'
	$(PIP) install intel-opencl-rt intel-cmplr-lib-rt || \
		echo "Intel's OpenCL CPU runtime could not be installed: the bench skips it"
	touch $@

# The bench's kernels, the GPU-style corpus (bench/gpu_cases.py) and what a launch costs
# under each way OpenMP's threads may wait (bench/launch_cost.py).
bench: install $(VENV)/.bench
	$(PY) bench/bench.py
	$(PY) bench/bench.py --corpus gpu
	$(PY) bench/launch_cost.py --wait-policies

# The bench kernels under every gcc-N and clang-N on PATH (bench/compilers.py).
bench-compilers: install $(VENV)/.bench
	$(PY) bench/compilers.py

bench-quick: install $(VENV)/.bench
	$(PY) bench/bench.py --quick
	$(PY) bench/bench.py --corpus gpu --quick

clean:
	rm -rf $(VENV) build *.egg-info .cache
