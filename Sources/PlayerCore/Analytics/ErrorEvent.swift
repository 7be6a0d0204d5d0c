import Foundation

/// One recorded failure, as error analytics keeps it: what kind of error, during which operation,
/// whether the engine retries it, and how it ended. Nothing else.
///
/// Privacy: error patterns are tracked without personal data. So an event has no free text,
/// no URL, no title, no path, no message and no underlying error description, only:
/// - `errorType`, taken from a typed `PlaybackError` (`Network.timeout`), never from a caller's string;
/// - `operation` and `userAction`, validated `AnalyticsIdentifier`s (anything else becomes `other`);
/// - `isRetryable`, `resolution`, a random `id` and a `timestamp` cut to whole seconds (enough for
///   the 24 h / 7 d windows; finer timing only helps fingerprinting, and whole seconds round-trip
///   exactly through ISO-8601 and SQLite).
///
/// There is no source `location` ("FavoritesService.swift:45") either: a source
/// location adds cardinality without telling a user anything the operation name does not.
public struct ErrorEvent: Sendable, Codable, Hashable, Identifiable {
    /// How an error ended. Stored by raw value, so the names are stable.
    public enum Resolution: String, Sendable, Codable, Hashable, CaseIterable {
        /// The engine's own retry (backoff, reconnect) succeeded.
        case automaticRetry
        /// The user pressed Retry and it succeeded.
        case manualRetry
        /// Nothing (yet) fixed it.
        case unresolved

        /// True for the two retry outcomes.
        public var isResolved: Bool { self != .unresolved }
    }

    /// Random, so it links an event to its later resolution without identifying anyone.
    public let id: UUID
    /// When it happened, in whole seconds.
    public let timestamp: Date
    /// `PlaybackError.errorType`, such as `Network.timeout`.
    public let errorType: String
    /// What Tonearm was doing, such as `playStation`.
    public let operation: AnalyticsIdentifier
    /// What the user had asked for, when the error followed a user action.
    public let userAction: AnalyticsIdentifier?
    /// `PlaybackError.isRetryable`: the engine retries this kind of error by itself.
    public let isRetryable: Bool
    /// How it ended.
    public let resolution: Resolution

    /// Builds an event from a typed error. The only way to set `errorType` is through a
    /// `PlaybackError`, so a caller cannot put a message or a URL there.
    public init(
        _ error: PlaybackError,
        operation: AnalyticsIdentifier,
        userAction: AnalyticsIdentifier? = nil,
        resolution: Resolution = .unresolved,
        timestamp: Date,
        id: UUID = UUID()
    ) {
        self.init(
            id: id, timestamp: timestamp, errorType: error.errorType, operation: operation,
            userAction: userAction, isRetryable: error.isRetryable, resolution: resolution
        )
    }

    private init(
        id: UUID, timestamp: Date, errorType: String, operation: AnalyticsIdentifier,
        userAction: AnalyticsIdentifier?, isRetryable: Bool, resolution: Resolution
    ) {
        self.id = id
        self.timestamp = Self.wholeSeconds(timestamp)
        // Error types are identifiers too (`Category.name`); a decoded value that is not one is
        // not trusted (a tampered file), so it collapses to `other` like any bad identifier.
        self.errorType = AnalyticsIdentifier(errorType).rawValue
        self.operation = operation
        self.userAction = userAction
        self.isRetryable = isRetryable
        self.resolution = resolution
    }

    /// The same event with another resolution.
    public func resolved(_ resolution: Resolution) -> ErrorEvent {
        ErrorEvent(
            id: id, timestamp: timestamp, errorType: errorType, operation: operation,
            userAction: userAction, isRetryable: isRetryable, resolution: resolution
        )
    }

    private enum CodingKeys: String, CodingKey {
        case id, timestamp, errorType, operation, userAction, isRetryable, resolution
    }

    /// Decoding re-validates everything (see `init`), because stores and export files live on
    /// disk where anything may have been edited.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(UUID.self, forKey: .id),
            timestamp: try container.decode(Date.self, forKey: .timestamp),
            errorType: try container.decode(String.self, forKey: .errorType),
            operation: try container.decode(AnalyticsIdentifier.self, forKey: .operation),
            userAction: try container.decodeIfPresent(AnalyticsIdentifier.self, forKey: .userAction),
            isRetryable: try container.decode(Bool.self, forKey: .isRetryable),
            resolution: try container.decode(Resolution.self, forKey: .resolution)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encode(errorType, forKey: .errorType)
        try container.encode(operation, forKey: .operation)
        try container.encodeIfPresent(userAction, forKey: .userAction)
        try container.encode(isRetryable, forKey: .isRetryable)
        try container.encode(resolution, forKey: .resolution)
    }

    private static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }
}
