// swift-tools-version: 6.1
// Tonearm's examples, a package of its own that depends on Tonearm by path exactly as an app
// outside the repository depends on it by URL: it sees the PlayerKit product and its public API,
// nothing else. `make test` builds it (scratch path .build/examples), so the examples cannot rot.
import PackageDescription

let package = Package(
    name: "TonearmExamples",
    platforms: [.macOS(.v15)],
    dependencies: [
        // An app writes: .package(url: "https://github.com/OWNER/tonearm", from: "0.1.0")
        .package(name: "Tonearm", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "PlayNow", dependencies: [.product(name: "PlayerKit", package: "Tonearm")], path: "PlayNow",
            swiftSettings: [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")])
    ]
)
