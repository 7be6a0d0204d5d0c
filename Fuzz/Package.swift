// swift-tools-version: 6.1
// Tonearm's libFuzzer targets: one executable per parser that reads bytes from the network or a
// file. A package of its own, so `swift build` and `make test` at the top never build it; `make
// fuzz` builds it with `-sanitize=fuzzer,address` into its own scratch path (see docs/FUZZING.md).
import Foundation
import PackageDescription

// A path dependency is named after its folder, so the top package's identity is the name of
// whatever folder the repository was cloned into.
let tonearm = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

func fuzzTarget(_ name: String, _ products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzSupport"] + products.map { .product(name: $0, package: tonearm) },
        swiftSettings: strictSettings)
}

let package = Package(
    name: "TonearmFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [
        // The libFuzzer driver call and the contract checks every target shares.
        .target(name: "FuzzSupport", dependencies: [.product(name: "PlayerCore", package: tonearm)], swiftSettings: strictSettings),
        fuzzTarget("FuzzIcy", ["Streaming", "PlayerCore"]),
        fuzzTarget("FuzzPlaylist", ["Streaming", "PlayerCore"]),
        fuzzTarget("FuzzRSS", ["Library", "PlayerCore"]),
        fuzzTarget("FuzzOPML", ["Library", "PlayerCore"]),
        fuzzTarget("FuzzSession", ["PlayerCore"]),
        fuzzTarget("FuzzImage", ["Media", "PlayerCore"]),
        fuzzTarget("FuzzDecoder", ["Media", "PlayerCore"]),
    ]
)
