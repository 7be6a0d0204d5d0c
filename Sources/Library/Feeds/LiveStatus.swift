import Foundation
import PlayerCore

/// Where a live episode (`podcast:liveItem`) stands: announced (`pending`, with when it starts),
/// on air (`live`: its enclosure is a stream, played as radio is, reconnects and all) or over
/// (`ended`: its enclosure is the recording, played as any episode).
package struct LiveStatus: Sendable, Equatable, Codable {
    package enum Phase: String, Sendable, Codable {
        case pending, live, ended
    }

    package var phase: Phase
    package var start: Date?
    package var end: Date?

    package init(phase: Phase, start: Date? = nil, end: Date? = nil) {
        self.phase = phase
        self.start = start
        self.end = end
    }

    /// The status a `liveItem`'s attributes give; nil for a status the namespace does not name
    /// (such an item is not kept: nothing truthful can be said of it).
    static func read(status: String?, start: String?, end: String?) -> LiveStatus? {
        guard let phase = status.flatMap({ Phase(rawValue: $0.trimmingWhitespace(newlines: false).lowercased()) }) else { return nil }
        return LiveStatus(phase: phase, start: start.flatMap(FeedDate.parse), end: end.flatMap(FeedDate.parse))
    }
}
