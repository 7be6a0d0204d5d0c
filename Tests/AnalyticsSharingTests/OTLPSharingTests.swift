import Foundation
import Library
import Logging
import PlayerCore
import TestProcesses
import Testing

@testable import AnalyticsSharing

/// Opt-in sharing end to end: the library's events, the rule, swift-otel's OTLP/HTTP exporter and
/// a loopback receiver that decodes each request with the OpenTelemetry project's own protobuf
/// definitions. Canaries (a station's title and address, a host, a path, a file name, a token, a
/// secret setting, an operation name, the library's folder) are planted in every field of the local
/// data; none may appear in what was sent.
@Suite("Opt-in sharing against an OTLP receiver")
struct OTLPSharingTests {
    /// 2026-11-28 10:00:00 UTC.
    static let ten = Date(timeIntervalSince1970: 1_795_860_000)
    static func at(_ hours: Double) -> Date { ten.addingTimeInterval(hours * 3600) }

    static let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    static let canaries = [
        "canary-host-7f3a", "canary-path", "canary-file", "canary-token", "Canary Station Title", "canaryOperation", "canaryUserAction",
        "canary-home", "canary-secret",
    ]

    /// A library with consent given at 10:30 and errors at 10:45 (before the answer), 11:05 and
    /// 11:40 (the same type), and 12:10 (another type), every canary planted.
    static func plantedLibrary() throws -> (store: LibraryStore, directory: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("canary-home-\(UUID().uuidString)")
        let store = try LibraryStore.open(directory: directory)
        let address = URL(string: "http://user:canary-secret@canary-host-7f3a.example/canary-path/canary-file.mp3?token=canary-token")!
        _ = try store.addStation(name: "Canary Station Title", url: address, genre: "canary-path")
        try store.setSetting("sync.username", "canary-secret")
        try store.setAnalyticsSharing(AnalyticsSharingState().granted(at: at(0.5)))
        return (store, directory)
    }

    static func record(_ errors: [(PlaybackError, Double)], in store: LibraryStore) async throws {
        for (error, hours) in errors {
            try await store.errorEvents.append(
                ErrorEvent(error, operation: "canaryOperation", userAction: "canaryUserAction", timestamp: at(hours)))
        }
    }

    static let lost = PlaybackError(
        .connectionFailed, host: "canary-host-7f3a.example", underlying: "http://canary-host-7f3a.example/canary-path/canary-file.mp3?token=canary-token")
    static let corrupt = PlaybackError(.corruptData, underlying: "/home/canary-home/canary-file.mp3")
    static let errors: [(PlaybackError, Double)] = [(lost, 0.75), (lost, 1.08), (lost, 1.67), (corrupt, 2.17)]

    static func service(
        _ store: LibraryStore, endpoint: String, at now: Date, budget: RetryBudget = RetryBudget()
    ) -> AnalyticsSharingService {
        AnalyticsSharingService(
            store: store, exporter: OTLPErrorCountExporter(endpoint: endpoint, timeout: .seconds(3), version: "test", logger: quiet),
            budget: budget, now: { now }, logger: quiet)
    }

    @Test func onlyWholeHoursOfCountsReachTheCollectorAndNothingPersonal() async throws {
        let receiver = try OTLPReceiver()
        let (store, directory) = try Self.plantedLibrary()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await Self.record(Self.errors, in: store)

        let sharing = Self.service(store, endpoint: receiver.endpoint, at: Self.at(3.01))
        #expect(await sharing.step() == .sent(counts: 2, before: Self.at(3)))
        #expect(await sharing.step() == .waiting(until: Self.at(4.01)), "an hour sent is never sent again")

        let requests = receiver.requests()
        try #require(requests.count == 1, "\(receiver.log())")
        let request = requests[0]
        #expect(request.path == "/v1/metrics")
        #expect(request.contentType == "application/x-protobuf")
        let decoded = try #require(request.decoded, "\(request.decodeError ?? "")")

        let resource = try #require((decoded["resourceMetrics"] as? [[String: Any]])?.first)
        let resourceAttributes = Self.attributes((resource["resource"] as? [String: Any])?["attributes"])
        #expect(resourceAttributes["service.name"] == "tonearm")
        let pseudonym = try #require(resourceAttributes["tonearm.analytics.id"])
        #expect(pseudonym.count == 16 && pseudonym.allSatisfy(\.isHexDigit))
        #expect(Set(resourceAttributes.keys) == ["service.name", "service.version", "tonearm.analytics.id"])

        let metrics = ((resource["scopeMetrics"] as? [[String: Any]]) ?? []).flatMap { ($0["metrics"] as? [[String: Any]]) ?? [] }
        #expect(metrics.map { $0["name"] as? String } == ["tonearm.errors"])
        let sum = try #require(metrics.first?["sum"] as? [String: Any])
        #expect(sum["isMonotonic"] as? Bool == true)
        let points = (sum["dataPoints"] as? [[String: Any]]) ?? []
        let counted = Dictionary(
            uniqueKeysWithValues: points.map { point in
                let attributes = Self.attributes(point["attributes"])
                return ("\(attributes["tonearm.hour"] ?? "?") \(attributes["error.code"] ?? "?") \(attributes["error.category"] ?? "?")",
                    point["asInt"] as? String)
            })
        #expect(
            counted == [
                "\(Self.at(1).formatted(.iso8601)) Network.connectionFailed network": "2",
                "\(Self.at(2).formatted(.iso8601)) \(Self.corrupt.errorType) \(Self.corrupt.category.rawValue.lowercased())": "1",
            ], "the 10:45 error came before the answer and stays on the machine")

        let everything = String(decoding: try JSONSerialization.data(withJSONObject: decoded), as: UTF8.self)
        for canary in Self.canaries + [directory.path] {
            #expect(request.body.range(of: Data(canary.utf8)) == nil, "\(canary) was in the request's bytes")
            #expect(!everything.localizedCaseInsensitiveContains(canary), "\(canary) was in the decoded request")
        }
    }

    @Test func aCollectorThatIsDownCostsALogLineAndTheCountsGoLater() async throws {
        let receiver = try OTLPReceiver()
        let down = try PortReservation()
        let (store, directory) = try Self.plantedLibrary()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await Self.record(Self.errors, in: store)
        let first = Self.at(3.01)

        #expect(await Self.service(store, endpoint: "http://127.0.0.1:\(down.port)/v1/metrics", at: first).step() == .failed(retryAllowed: true))
        let failed = try store.analyticsSharing()
        #expect(failed.failures == 1 && failed.sentThrough == Self.at(1), "a failed export marks no hour sent")
        #expect(await Self.service(store, endpoint: receiver.endpoint, at: first.addingTimeInterval(30)).step() == .waiting(until: first.addingTimeInterval(60)))
        #expect(receiver.requests().isEmpty)
        #expect(await Self.service(store, endpoint: receiver.endpoint, at: first.addingTimeInterval(61)).step() == .sent(counts: 2, before: Self.at(3)))
        #expect(receiver.requests().count == 1)
        #expect(try store.analyticsSharing().failures == 0)
    }

    @Test func aCollectorThatRefusesIsAFailureAndAnEmptyBudgetWaitsAWholeInterval() async throws {
        let refusing = try OTLPReceiver(refusing: true)
        let (store, directory) = try Self.plantedLibrary()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await Self.record(Self.errors, in: store)
        let first = Self.at(3.01)
        let empty = RetryBudget(capacity: 0, refillPerSecond: 0)

        #expect(await Self.service(store, endpoint: refusing.endpoint, at: first, budget: empty).step() == .failed(retryAllowed: false))
        #expect(refusing.requests().count == 1, "the request reached the collector, which refused it")
        #expect(await Self.service(store, endpoint: refusing.endpoint, at: first.addingTimeInterval(61)).step() == .waiting(until: first.addingTimeInterval(3600)))
        #expect(refusing.requests().count == 1)
    }

    @Test func withoutConsentNothingIsSent() async throws {
        let receiver = try OTLPReceiver()
        let (store, directory) = try Self.plantedLibrary()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await Self.record(Self.errors, in: store)

        try store.setAnalyticsSharing(AnalyticsSharingState())
        #expect(await Self.service(store, endpoint: receiver.endpoint, at: Self.at(30)).step() == .off)
        try store.setAnalyticsSharing(AnalyticsSharingState().granted(at: Self.at(0.5)).declined())
        #expect(await Self.service(store, endpoint: receiver.endpoint, at: Self.at(30)).step() == .off)
        let noEndpoint = AnalyticsSharingService(
            store: store, exporter: nil, budget: RetryBudget(), now: { Self.at(30) }, logger: Self.quiet)
        try store.setAnalyticsSharing(AnalyticsSharingState().granted(at: Self.at(0.5)))
        #expect(await noEndpoint.step() == .off)
        #expect(receiver.requests().isEmpty)
    }

    /// protobuf's JSON mapping of `KeyValue`s: `[{key, value: {stringValue}}]`.
    static func attributes(_ list: Any?) -> [String: String] {
        var found: [String: String] = [:]
        for entry in (list as? [[String: Any]]) ?? [] {
            guard let key = entry["key"] as? String, let value = entry["value"] as? [String: Any] else { continue }
            found[key] = (value["stringValue"] as? String) ?? "\(value)"
        }
        return found
    }
}
