# Tonearm's two set-up-and-go commands: `make run` and `make test`.
# Both first install whatever Debian packages are missing (scripts/install-deps.sh).

SWIFT ?= swift
BIN_DIR = $(shell $(SWIFT) build --show-bin-path)

.PHONY: all deps build run test bench fuzz fuzz-seeds docs api-docs clean

all: build

deps:
	@bash scripts/install-deps.sh

build: deps
	$(SWIFT) build

# The main job with embedded defaults: the built-in 3-stage meditation demo, to PulseAudio when a
# server answers, otherwise rendered to ./tonearm-demo.wav.
run: build
	"$(BIN_DIR)/tonearm" demo

# A hung test fails the run after TEST_TIMEOUT seconds instead of holding CI to its limit, and
# the log is line-buffered so it shows which tests were still running.
TEST_TIMEOUT ?= 1500

# At most this many tests at once. Unbounded, Swift Testing starts every test together, and the
# hundreds of short ones queue ahead of the radio tests' players on the two threads of the
# concurrency pool for most of a minute (a fresh clone saw a player publish nothing for 60 s).
TEST_PARALLEL ?= 12

test: deps
	$(SWIFT) build --build-tests
	@# The examples are a package of their own that depends on this one by path, as an app does:
	@# they see PlayerKit's public API alone. A test plays a file and a stream with them.
	$(SWIFT) build --package-path Examples --scratch-path .build/examples
	@# The build has just written gigabytes. On ext4 the first fsync a test makes (SQLite's, a
	@# downloaded episode's) would wait for all of it to reach the disk, holding one of the two
	@# threads of the concurrency pool for most of a minute and stalling every player under test.
	sync
	@# --skip-build: the build above is complete, and `swift test` building again compiles its
	@# plugins and, with them, SwiftProtobuf a second time (a minute of a fresh clone's run).
	SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_PARALLEL) timeout --kill-after=30 $(TEST_TIMEOUT) stdbuf -oL -eL $(SWIFT) test --skip-build

bench: deps
	@bash scripts/bench.sh

# libFuzzer targets for every parser of untrusted bytes, built apart from `build` and `test` (the
# Fuzz* products with -sanitize=fuzzer,address, scratch path Fuzz/.build). Each runs FUZZ_SECONDS;
# FUZZ_TARGETS picks some (icy playlist rss opml session image decoder mpd mpdfilter transcript hls timedmetadata chapters directory sync subtitles tags). See docs/FUZZING.md.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=

fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) bash scripts/fuzz.sh $(FUZZ_TARGETS)

# Rewrites the hand-made starting inputs under Tests/Fuzz/Corpus.
fuzz-seeds:
	@bash scripts/fuzz-seeds.sh

# Regenerates the parts of docs/ that the code prints, each between its markers
# (<!-- NAME:begin ... --> and <!-- NAME:end -->): the player states and the resilience defaults.
# A test fails while either is stale.
docs: build
	@$(call splice,docs/STATES.md,states,states --markdown)
	@$(call splice,docs/RESILIENCE.md,resilience,resilience --markdown)

# $(call splice,FILE,NAME,ARGUMENTS): replaces the lines between FILE's NAME markers with what
# `tonearm ARGUMENTS` prints; fails, leaving FILE as it was, when FILE has no such markers.
splice = "$(BIN_DIR)/tonearm" $(3) > $(1).generated && \
	awk -v begin='<!-- $(2):begin' -v end='<!-- $(2):end -->' -v generated=$(1).generated ' \
		index($$0, begin) == 1 { print; while ((getline line < generated) > 0) print line; skip = 1; found = 1; next } \
		$$0 == end { skip = 0 } !skip { print } END { exit !found }' $(1) > $(1).new && \
	mv $(1).new $(1) && rm -f $(1).generated && echo "$(1): $(2) regenerated" || \
	{ rm -f $(1).new $(1).generated; echo "$(1): no $(2) markers" >&2; exit 1; }

# PlayerKit's and PlayerCore's DocC catalogs (API reference, "Embedding Tonearm"), built with
# swift-docc-plugin into .build/plugins/Swift-DocC/outputs/.
api-docs: deps
	$(SWIFT) package --disable-sandbox generate-documentation --target PlayerKit --target PlayerCore

clean:
	$(SWIFT) package clean
