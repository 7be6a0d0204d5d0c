import CoreMetrics
import Foundation
import Logging
import OTel
import PlayerCore
import ServiceLifecycle

/// Sends hourly error counts to an OTLP/HTTP endpoint with swift-otel, once per call.
///
/// Each call builds a metrics backend that lives for one export: the counts are recorded as
/// `tonearm.errors` counters (attributes `error.code`, `error.category`, `tonearm.hour`), then the
/// backend is shut down, and swift-otel's reader sends them in its final flush. Tonearm's own
/// rule decides when an export happens (`AnalyticsSharingRule`, on its clock), so swift-otel's
/// periodic timer is set far beyond the export and never fires.
///
/// What goes out is only that: the counters, `service.name` and `service.version`, and the rotating
/// pseudonym as `tonearm.analytics.id`. No URL, title, host, path or file name is in the counts,
/// because the events they come from hold none.
package struct OTLPErrorCountExporter: Sendable {
    package enum Outcome: Sendable, Equatable {
        case sent
        /// The endpoint refused or could not be reached; swift-otel's reason, for the log.
        case failed(String)
    }

    private let endpoint: String
    private let timeout: Duration
    private let version: String
    private let logger: Logger

    /// `endpoint` is the full OTLP/HTTP metrics address (`http://collector:4318/v1/metrics`).
    package init(endpoint: String, timeout: Duration = .seconds(15), version: String, logger: Logger) {
        self.endpoint = endpoint
        self.timeout = timeout
        self.version = version
        self.logger = logger
    }

    package func export(_ counts: [HourlyErrorCount], pseudonym: String) async -> Outcome {
        let watch = ExportFailureWatch(forwardingTo: logger)
        var configuration = OTel.Configuration.default
        configuration.serviceName = "tonearm"
        configuration.resourceAttributes = ["service.version": version, "tonearm.analytics.id": pseudonym]
        configuration.diagnosticLogger = .custom(watch.logger)
        configuration.diagnosticLogLevel = .warning
        configuration.traces.enabled = false
        configuration.logs.enabled = false
        configuration.metrics.exporter = .otlp
        configuration.metrics.exportInterval = .seconds(86_400 * 365)
        configuration.metrics.exportTimeout = timeout
        configuration.metrics.temporalityPreference = .delta
        configuration.metrics.otlpExporter.endpoint = endpoint
        configuration.metrics.otlpExporter.protocol = .httpProtobuf
        configuration.metrics.otlpExporter.timeout = timeout
        do {
            let backend = try OTel.makeMetricsBackend(configuration: configuration)
            for count in counts {
                let dimensions = [
                    ("error.code", count.errorType), ("error.category", count.category),
                    ("tonearm.hour", count.hour.formatted(.iso8601)),
                ]
                Counter(label: "tonearm.errors", dimensions: dimensions, factory: backend.factory).increment(by: count.count)
            }
            let group = ServiceGroup(
                configuration: .init(
                    services: [
                        .init(service: backend.service),
                        // Returns at once and so shuts the group down: the backend's reader
                        // flushes, which is the export.
                        .init(service: FlushNow(), successTerminationBehavior: .gracefullyShutdownGroup),
                    ],
                    logger: watch.logger))
            try await group.run()
        } catch {
            return .failed(String(describing: error))
        }
        if let failure = watch.failures.first { return .failed(failure) }
        return .sent
    }

    private struct FlushNow: Service {
        func run() async throws {}
    }
}
