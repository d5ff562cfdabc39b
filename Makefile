# The two commands a new machine needs: `make run` and `make test`. Both install what is
# missing (Debian packages), configure and build.
BUILD_DIR ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS ?= 2
CMAKE_FLAGS ?=

.PHONY: all deps test-deps configure build run test test-asan fuzz fuzz-build soak package reference docs-screenshots clean

all: build

deps:
	@packaging/install-deps.sh build

test-deps:
	@packaging/install-deps.sh test

$(BUILD_DIR)/build.ninja:
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DPLIMSOLL_WERROR=ON $(CMAKE_FLAGS)

configure: deps $(BUILD_DIR)/build.ninja

build: configure
	cmake --build $(BUILD_DIR) -j$(JOBS)

# Opens the window on the default store (seeded with the sample runs on first start).
run: build
	@if [ -z "$$DISPLAY" ] && [ -z "$$WAYLAND_DISPLAY" ] && [ -z "$$QT_QPA_PLATFORM" ]; then \
	  echo "make run: no display to open the Plimsoll window on."; \
	  echo "  On a machine without a screen, use a virtual one:  xvfb-run -a make run"; \
	  echo "  or render off screen:                              QT_QPA_PLATFORM=offscreen make run"; \
	  echo "  The command-line tool needs no display:            $(BUILD_DIR)/app/plimsoll --help"; \
	  exit 2; \
	fi
	$(BUILD_DIR)/app/plimsoll

# Installs test services' packages, builds, and runs the whole suite through ctest; the
# suite starts and stops its own services (tests/services/).
test: test-deps build
	ctest --test-dir $(BUILD_DIR) --output-on-failure -j$(JOBS) --timeout 1200

# The unit and integration tests again, built with AddressSanitizer and UndefinedBehaviorSanitizer.
# Left out: packaging.*, and the two tests that assert a peak RSS, which ASan's shadow memory,
# redzones and quarantine inflate past any meaningful limit (an ASan `plimsoll runs` on an empty
# store alone peaks at ~270 MB against 28 MB; the deflate-bomb import at 420-445 MB against
# 92-98 MB). `make test` and `make soak` keep those limits; under ASan the bomb's refusal is still
# exercised by HdrHistogram.RefusesMalformedInputAndDecompressionBombs and fuzz.hdrcodec.
ASAN_BUILD_DIR ?= build-asan
ASAN_EXCLUDE = ^packaging\.|^SecurityBounded\.(LargeTrendImportStaysInBoundedMemory|HdrDeflateBombIsRefusedInBoundedMemoryAndTime)$$
test-asan: test-deps
	cmake -S . -B $(ASAN_BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DPLIMSOLL_WERROR=ON \
	  -DPLIMSOLL_SANITIZE=address,undefined $(CMAKE_FLAGS)
	cmake --build $(ASAN_BUILD_DIR) -j$(JOBS)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
	  ctest --test-dir $(ASAN_BUILD_DIR) --output-on-failure -j$(JOBS) --timeout 1800 -E '$(ASAN_EXCLUDE)'

# Coverage-guided fuzzing of every parser (fuzz/): a separate clang build with libFuzzer,
# AddressSanitizer and UndefinedBehaviorSanitizer; each target runs FUZZ_SECONDS.
# FUZZ_TARGETS narrows it (a regex over target names). `make test` only replays the findings
# and a few seconds of mutations per target (ctest -L fuzz).
FUZZ_BUILD_DIR ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= .
# clang 16: clang 14 (Debian's default clang) cannot capture structured bindings in
# lambdas, which the importers do (valid C++20). Warnings are policed by the g++ build; a
# clang-only warning must not stop the fuzzers.
FUZZ_CXX ?= clang++-16
FUZZ_FLAGS = -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer \
  -Wno-unknown-warning-option
fuzz-build: test-deps
	cmake -S . -B $(FUZZ_BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DPLIMSOLL_WERROR=OFF \
	  -DCMAKE_CXX_COMPILER=$(FUZZ_CXX) -DCMAKE_CXX_FLAGS="$(FUZZ_FLAGS)" -DCMAKE_CXX_FLAGS_DEBUG="-g -O1" \
	  -DPLIMSOLL_FUZZ_ENGINE=libfuzzer -DPLIMSOLL_BUILD_TESTS=OFF -DPLIMSOLL_BUILD_PERF=OFF $(CMAKE_FLAGS)
	cmake --build $(FUZZ_BUILD_DIR) -j$(JOBS) --target plimsoll_fuzzers
fuzz: fuzz-build
	fuzz/run-fuzzers.sh $(FUZZ_BUILD_DIR) $(FUZZ_SECONDS) '$(FUZZ_TARGETS)'

# The performance suite (never part of `make test`): a Release build of its own, micro-benchmarks,
# the store and window at 1M records, and the bench client beside Apache's perf tools and bare
# librdkafka loops against the local test broker. Prints one table; perf-results.json beside it.
PERF_BUILD_DIR ?= build-perf
.PHONY: perf
perf: test-deps
	cmake -S . -B $(PERF_BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" \
	  -DPLIMSOLL_WERROR=ON -DPLIMSOLL_BUILD_TESTS=OFF -DPLIMSOLL_BUILD_FUZZ=OFF -DPLIMSOLL_BUILD_PERF=ON $(CMAKE_FLAGS)
	cmake --build $(PERF_BUILD_DIR) -j$(JOBS) --target perf_all
	perf/run-perf.sh $(PERF_BUILD_DIR)

# Bounded memory at scale: `plimsoll import` of a generated 1 GB trend-records file must stay
# under 300 MB of peak RSS (records stream to the store run by run); `make test` runs the
# same check on 100 MB with a 150 MB limit.
# It also kills 100 imports with SIGKILL at random points (the suite: 12) and checks the store
# after each.
soak: build
	PLIMSOLL_SOAK_BYTES=1073741824 PLIMSOLL_SOAK_MAX_RSS_MB=300 PLIMSOLL_KILL_LOOPS=100 \
	  ctest --test-dir $(BUILD_DIR) --output-on-failure \
	  -R 'SecurityBounded.LargeTrendImport|StoreSafety.KilledImports' --timeout 3600

# The reference in docs/reference/, written from the binary (every subcommand's --help, metrics
# --json, formats --json); `make test` fails while the committed one differs from it.
reference: build
	cmake --build $(BUILD_DIR) --target reference

# The manual's screenshots of every view (docs/window/images/), taken by the window's tests.
docs-screenshots: build
	cmake --build $(BUILD_DIR) -j$(JOBS) --target docs-screenshots

# The Debian package, in $(BUILD_DIR)/package/.
package: build
	cd $(BUILD_DIR) && cpack -G DEB -B package

clean:
	rm -rf $(BUILD_DIR)
