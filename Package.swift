// swift-tools-version: 6.1
// Tonearm: a resilient audio player for Linux. Targets are layers:
// lower layers never import higher ones, and the pure layers (PlayerCore, Presentation)
// depend on Foundation only (the picture is in docs/ARCHITECTURE.md).
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Tonearm",
    // The text catalogs' reference language (Presentation's Resources/en.lproj).
    defaultLocalization: "en",
    platforms: [.macOS(.v15)],
    products: [
        // The API: the composed player an app embeds (PlayerKit re-exports what its API names) and
        // the pure player model it is made of (states, the state machine, commands, errors).
        // Everything else is `package` access: shared by the targets here, promised to no one.
        // Examples/ is a package of its own that depends on this one by path, as an app would.
        .library(name: "PlayerKit", targets: ["PlayerKit"]),
        .library(name: "PlayerCore", targets: ["PlayerCore"]),
        .executable(name: "tonearm", targets: ["tonearm"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // OTLP/HTTP only: the gRPC exporter's packages are resolved but never built.
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // `swift package generate-documentation` for PlayerKit's and PlayerCore's DocC catalogs.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Pure: models, the state machine, errors, resilience, analytics. Foundation only; it shows no
        // text and reads no environment (texts and the language are Presentation's).
        .target(name: "PlayerCore", swiftSettings: strictSettings),
        // Pure: view states and every user-facing text (UI, states, errors) built from PlayerCore
        // values. Its resources are the text catalogs, one Localizable.strings per language
        // (docs/LOCALIZATION.md), read once.
        .target(
            name: "Presentation", dependencies: ["PlayerCore"], resources: [.process("Resources")],
            swiftSettings: strictSettings),
        // C shims: FFmpeg 5.1 for decoding, resampling and converting pixels (Media only), libpulse
        // for output. Debian installs the headers on the default include path, so no pkg-config
        // flags are needed.
        .systemLibrary(
            name: "CFFmpeg",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswresample-dev", "libswscale-dev", "libavutil-dev"])]),
        // FFmpeg's libraries are loaded on first use, not linked: they and the 140 libraries they
        // pull in cost 31 MB and most of the start-up time of every command, decoding or not.
        // The functions Media calls are defined here and forward to the loaded libraries.
        .target(name: "FFmpegLoader"),
        .systemLibrary(name: "CPulse", providers: [.apt(["libpulse-dev"])]),
        .systemLibrary(name: "CSonic", providers: [.apt(["libsonic-dev"])]),
        .systemLibrary(name: "CEbur128", providers: [.apt(["libebur128-dev"])]),
        // sd-bus (libsystemd) for MPRIS: the vtables and variadic calls wrapped in C.
        .systemLibrary(name: "CSDBus", providers: [.apt(["libsystemd-dev"])]),
        // Everything that calls FFmpeg, and the only target that imports CFFmpeg: audio decoded and
        // resampled to the internal format (files, and byte sources through custom I/O), artwork
        // pictures decoded and their pixels converted by libswscale.
        .target(name: "Media", dependencies: ["PlayerCore", "CFFmpeg", "FFmpegLoader"], swiftSettings: strictSettings),
        // The MPD protocol's pure parts (requests, answers, errors, what `idle` waits for): no I/O,
        // so the fuzzer and the tests reach them without a socket.
        .target(name: "MPDProtocol", swiftSettings: strictSettings),
        // The MPD server: TCP and Unix-socket listeners (SwiftNIO) that run MPDProtocol's
        // connection state machine and ask an `MPDBackend`; the player behind it is not here.
        .target(
            name: "MPDServer",
            dependencies: [
                "MPDProtocol", .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings),
        // One blocking TCP or Unix socket connect with a real timeout, for the threads that write and
        // read a plain descriptor (the Snapcast output, the control script's MPD client). Glibc only.
        .target(name: "Sockets", swiftSettings: strictSettings),
        .testTarget(name: "SocketsTests", dependencies: ["Sockets"], swiftSettings: strictSettings),
        // Snapcast's stream plugin interface: its JSON-RPC mapped onto MPD commands (pure values),
        // and the controlscript's thin loop and MPD client connection.
        .target(
            name: "Snapcast", dependencies: ["MPDProtocol", "Sockets", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings),
        // Decks, mixer, sinks and the AudioPlayer actor that performs the machine's effects; its
        // decoders come from Media.
        .target(
            name: "AudioEngine",
            dependencies: ["PlayerCore", "Media", "CPulse", "CSonic", "CEbur128", "Sockets", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings),
        // Internet radio: the shared HTTP client, the HTTP byte source with ICY demux, playlists.
        .target(
            name: "Streaming",
            dependencies: [
                "PlayerCore", .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"), .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings),
        // SHA-2 and HMAC-SHA256 over GNU Nettle (GnuTLS's small C library, which FFmpeg's libraries
        // load too): content-derived names, downloads checked against their feed's digest, the
        // analytics pseudonym.
        .systemLibrary(name: "CNettle", providers: [.apt(["nettle-dev"])]),
        .target(name: "Digests", dependencies: ["CNettle"], swiftSettings: strictSettings),
        .testTarget(name: "DigestsTests", dependencies: ["Digests"], swiftSettings: strictSettings),
        // Metadata (ICY titles, status APIs), artwork (fetch, cache; decoded by Media), connectivity.
        .target(
            name: "Services",
            dependencies: [
                "PlayerCore", "Streaming", "Media", "Digests",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings),
        // The user's library: the SQLite store (GRDB), podcast feeds (RSS, OPML), persistent analytics.
        .target(
            name: "Library",
            dependencies: ["PlayerCore", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSettings),
        // The engine an app embeds: routes each track to a file or network source and wires the
        // services into the player. No library: an app that only plays builds without GRDB.
        .target(
            name: "PlayerKit",
            dependencies: [
                "PlayerCore", "Media", "AudioEngine", "Streaming", "Services",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings),
        // The library's use cases over the engine, which every front end shares: the library a run
        // opens, podcasts and downloads, the up-next queue, sync, alarms, kept sessions.
        .target(
            name: "LibraryKit",
            dependencies: [
                "PlayerKit", "Library", "PlayerCore", "Media", "AudioEngine", "Streaming", "Services",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings),
        // The terminal screens: Presentation view states laid out on a character canvas (pure, so
        // every screen is snapshot-tested as text), key bindings.
        .systemLibrary(name: "CNcurses", providers: [.apt(["libncurses-dev"])]),
        .target(name: "TerminalUI", dependencies: ["Presentation", "PlayerCore", "CNcurses"], swiftSettings: strictSettings),
        // Front end: the desktop's media keys and widgets over D-Bus (sd-bus), for one player.
        .target(name: "MPRIS", dependencies: ["PlayerCore", "Presentation", "AudioEngine", "Media", "CSDBus"], swiftSettings: strictSettings),
        // The player and the library as an MPD server shows them (the server itself is MPDServer).
        .target(
            name: "MPD",
            dependencies: [
                "PlayerKit", "LibraryKit", "PlayerCore", "Presentation", "Library", "AudioEngine", "MPDProtocol",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings),
        // The protocol's pure parts, and the server over real sockets driven by mpc.
        .testTarget(name: "MPDProtocolTests", dependencies: ["MPDProtocol"], swiftSettings: strictSettings),
        .testTarget(
            name: "MPDServerTests",
            dependencies: [
                "MPDServer", "MPDProtocol", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"), .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings),
        .testTarget(name: "MPRISTests", dependencies: ["MPRIS", "PlayerCore"], swiftSettings: strictSettings),
        .testTarget(
            name: "MPDTests",
            dependencies: ["MPD", "MPDProtocol", "PlayerCore", "Presentation", "PlayerKit", "LibraryKit", "Library", "TestProcesses"],
            swiftSettings: strictSettings),
        // The player's metrics for operators: read from its updates (pure), applied to a swift-metrics
        // backend, and the Prometheus registry served at /metrics (SwiftNIO's HTTP codec).
        .target(
            name: "Telemetry",
            dependencies: [
                "PlayerCore", .product(name: "CoreMetrics", package: "swift-metrics"), .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings),
        // Opt-in sharing of error counts: hourly counts per error code, sent over OTLP/HTTP by
        // swift-otel with a rotating pseudonym, only with the listener's consent.
        .target(
            name: "AnalyticsSharing",
            dependencies: [
                "PlayerCore", "Library", .product(name: "OTel", package: "swift-otel"),
                .product(name: "CoreMetrics", package: "swift-metrics"), "Digests",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"), .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "AnalyticsSharingTests",
            dependencies: ["AnalyticsSharing", "Library", "PlayerCore", "TestProcesses", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings),
        .testTarget(
            name: "TelemetryTests",
            dependencies: ["Telemetry", "PlayerCore", .product(name: "Prometheus", package: "swift-prometheus"), "TestProcesses"],
            swiftSettings: strictSettings),
        // Front end: none. `tonearm serve`, one player and the library for as long as the machine
        // runs: the user's one daemon (lock, runtime directory), its log (the journal or a file),
        // its signals, systemd's readiness, and the services that control it (MPD, Snapcast).
        .target(
            name: "Daemon",
            dependencies: [
                "PlayerCore", "AudioEngine", "PlayerKit", "LibraryKit", "MPRIS", "CSDBus", "MPD", "MPDProtocol", "MPDServer", "Telemetry", "Streaming",
                "AnalyticsSharing",
                .product(name: "Prometheus", package: "swift-prometheus"), .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "DaemonTests", dependencies: ["Daemon", "PlayerKit", "LibraryKit", "PlayerCore", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings),
        // Front end: the terminal. The library and Now Playing controllers (TerminalUI's screens on a
        // real terminal), the line interface for pipes and screen readers with its JSON events,
        // and the configuration file.
        .target(
            name: "TerminalApp",
            dependencies: [
                "PlayerCore", "Presentation", "AudioEngine", "Media", "Streaming", "Services", "Library", "PlayerKit", "LibraryKit", "TerminalUI", "MPRIS",
                "AnalyticsSharing", .product(name: "TOMLKit", package: "TOMLKit"), .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings),
        // The executable: argument parsing and wiring, nothing else.
        .executableTarget(
            name: "tonearm",
            dependencies: [
                "PlayerCore", "Presentation", "Media", "AudioEngine", "Streaming", "Services", "Library", "PlayerKit", "LibraryKit", "TerminalUI",
                "MPRIS", "TerminalApp", "Daemon", "MPDProtocol", "Snapcast", "AnalyticsSharing",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Demo")],
            swiftSettings: strictSettings,
            // The shipped (release) program is linked lean, which docs/PERFORMANCE.md measures:
            // no table of exported symbols (an executable exports nothing, yet the dynamic linker
            // searched its 60,000 symbols for every symbol FFmpeg's libraries looked up) and its
            // relative relocations packed (DT_RELR, glibc 2.36): 3.6 MB read at every start
            // become 31 KB, and the program stays position independent; and the functions a run
            // touches placed together (scripts/symbol-order.sh), so they fill a few megabytes of
            // pages rather than being spread over all of the code. These need lld, which every
            // Swift toolchain for Linux ships.
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-use-ld=lld", "-Xlinker", "--no-export-dynamic", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                        "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/scripts/symbol-order.txt",
                        "-Xlinker", "--no-warn-symbol-ordering",
                    ],
                    .when(platforms: [.linux], configuration: .release))
            ]
        ),
        .testTarget(
            name: "PlayerCoreTests",
            dependencies: [
                "PlayerCore", "Presentation", "TestProcesses",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
        // Real FFmpeg on real files made by the ffmpeg tool: every audio format, byte sources,
        // seeking, bad input; artwork pictures in every pixel layout.
        // The controlscript against a real snapserver and a real mpd.
        .testTarget(
            name: "SnapcastTests", dependencies: ["Snapcast", "MPDProtocol", "TestProcesses"], swiftSettings: strictSettings),
        .testTarget(name: "MediaTests", dependencies: ["Media", "PlayerCore", "TestProcesses"], swiftSettings: strictSettings),
        // Real files, a real PulseAudio daemon started by the tests.
        .testTarget(
            name: "AudioEngineTests",
            dependencies: [
                "AudioEngine", "Media", "PlayerCore", "TestProcesses", .product(name: "Clocks", package: "swift-clocks"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "StreamingTests",
            dependencies: [
                "Streaming", "PlayerCore", "Media", "TestProcesses", .product(name: "Logging", package: "swift-log"),
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            swiftSettings: strictSettings),
        // Real HTTP servers (a NIO one in the tests, Icecast) for the services.
        .testTarget(
            name: "ServicesTests",
            dependencies: [
                "Services", "Media", "Streaming", "PlayerCore", "TestProcesses",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "LibraryTests",
            dependencies: ["Library", "PlayerCore", "TestProcesses", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSettings),
        // The whole radio path against a real Icecast behind a fault-injecting proxy.
        .testTarget(
            name: "PlayerKitTests",
            dependencies: [
                "PlayerKit", "LibraryKit", "Media", "AudioEngine", "Streaming", "Services", "Library", "PlayerCore", "Presentation", "TestProcesses",
                .product(name: "Clocks", package: "swift-clocks"), .product(name: "Logging", package: "swift-log"), "Digests",
            ],
            swiftSettings: strictSettings),
        // Test support: child processes for the harnesses that start real servers (PulseAudio,
        // Icecast), a scriptable HTTP server, and audio and pictures made by the ffmpeg tool.
        .target(
            name: "TestProcesses",
            dependencies: [
                "PlayerCore",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            path: "Tests/TestProcesses", exclude: ["DirectoryFixtures", "Gpodder", "OTLP", "PythonMPD"], swiftSettings: strictSettings),
        // Runs the built `tonearm` binary and holds the README to the code.
        .testTarget(
            name: "CLITests",
            dependencies: ["PlayerCore", "Presentation", "TestProcesses", "Library", "AnalyticsSharing"],
            // Library brings GRDB, whose `SQL` is also a string literal: a file sees a module's
            // extensions only when it imports that module, so a test's text stays `String`.
            swiftSettings: strictSettings + [.enableUpcomingFeature("MemberImportVisibility")]
        ),
        // The terminal's controllers driven without a terminal, and the JSON event lines.
        .testTarget(
            name: "TerminalAppTests",
            dependencies: [
                "TerminalApp", "TerminalUI", "PlayerKit", "LibraryKit", "Library", "PlayerCore", "Presentation", "AudioEngine", "TestProcesses", "Services",
                "Streaming",
                .product(name: "Logging", package: "swift-log"), .product(name: "Clocks", package: "swift-clocks"),
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "PresentationTests",
            dependencies: ["Presentation", "PlayerCore", "PresentationFixtures"],
            swiftSettings: strictSettings
        ),
        // Test support: one sample state per PlayerState case, for the view-state and screen tests.
        .target(name: "PresentationFixtures", dependencies: ["PlayerCore", "Presentation"], path: "Tests/PresentationFixtures", swiftSettings: strictSettings),
        // Text snapshots of every screen in every state, both sizes, both languages.
        .testTarget(
            name: "TerminalUITests",
            dependencies: [
                "TerminalUI", "Presentation", "PlayerCore", "PresentationFixtures",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ],
            exclude: ["__Snapshots__"],
            swiftSettings: strictSettings),

        // libFuzzer targets, one per parser of untrusted bytes (Fuzz/Sources). An ordinary build
        // replays the files named on the command line (the corpus test does); `make fuzz` builds
        // them with -sanitize=fuzzer,address into Fuzz/.build (docs/FUZZING.md).
        .target(name: "FuzzSupport", dependencies: ["PlayerCore"], path: "Fuzz/Sources/FuzzSupport", swiftSettings: strictSettings),
        fuzzTarget("FuzzIcy", ["Streaming"]),
        fuzzTarget("FuzzPlaylist", ["Streaming"]),
        fuzzTarget("FuzzRSS", ["Library"]),
        fuzzTarget("FuzzOPML", ["Library"]),
        fuzzTarget("FuzzSession", []),
        fuzzTarget("FuzzImage", ["Media"]),
        fuzzTarget("FuzzDecoder", ["Media"]),
        fuzzTarget("FuzzMPD", ["MPDProtocol"]),
        fuzzTarget("FuzzMPDFilter", ["MPDProtocol"]),
        fuzzTarget("FuzzTranscript", ["Services"]),
        fuzzTarget("FuzzHLS", ["Streaming"]),
        fuzzTarget("FuzzTimedMetadata", ["Streaming"]),
        fuzzTarget("FuzzChapters", ["Services"]),
        fuzzTarget("FuzzDirectory", ["Services"]),
        fuzzTarget("FuzzSync", ["Library"]),
        fuzzTarget("FuzzSubtitles", ["Media"]),
        fuzzTarget("FuzzTags", ["Media"]),
        fuzzTarget("FuzzLyrics", []),
        fuzzTarget("FuzzCue", []),
    ]
)

func fuzzTarget(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(
        name: name, dependencies: ["FuzzSupport", "PlayerCore"] + dependencies, path: "Fuzz/Sources/\(name)",
        swiftSettings: strictSettings)
}
