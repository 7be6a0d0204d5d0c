import Foundation

/// An alarm as the listener set it: what plays, at which time of day, on which days, how it fades
/// in. Kept by the daemon (`AlarmList`), or held by the process that waits for it.
public struct Alarm: Sendable, Hashable, Codable, Identifiable {
    /// What the alarm plays: something kept in the library, looked up when it sounds (a station
    /// renamed or removed meanwhile is told then, and the alarm tone plays instead).
    public enum Source: Sendable, Hashable, Codable, CustomStringConvertible {
        /// A station by its name or id.
        case station(String)
        /// A podcast episode by its id, from where the listener stopped.
        case episode(Int64)
        /// A session kept in the library by its name or id.
        case session(String)

        public var description: String {
            switch self {
            case .station(let name): "station \(TextSanitizer.singleLine(name, maxLength: 120))"
            case .episode(let id): "episode \(id)"
            case .session(let name): "session \(TextSanitizer.singleLine(name, maxLength: 120))"
            }
        }

        // Kept as `{"station": "Radio X"}`, `{"episode": 42}` or `{"session": "Morning"}`.
        private enum Key: String, CodingKey { case station, episode, session }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            if let name = try container.decodeIfPresent(String.self, forKey: .station) {
                self = .station(name)
            } else if let id = try container.decodeIfPresent(Int64.self, forKey: .episode) {
                self = .episode(id)
            } else if let name = try container.decodeIfPresent(String.self, forKey: .session) {
                self = .session(name)
            } else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no station, episode or session"))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            switch self {
            case .station(let name): try container.encode(name, forKey: .station)
            case .episode(let id): try container.encode(id, forKey: .episode)
            case .session(let name): try container.encode(name, forKey: .session)
            }
        }
    }

    /// Unique among the daemon's alarms (`tonearm alarm --cancel ID`); 0 for one that waits in its
    /// own process.
    public var id: Int
    public var time: AlarmTime
    public var days: AlarmDays
    public var source: Source
    /// Seconds from silence to the volume (0: at once).
    public var fadeIn: Double
    /// The volume it rises to; nil: the listener's volume when it sounds.
    public var volume: Volume?

    /// `--fade-in`'s range: up to five minutes, so the source is audible well inside the 20 s it
    /// is given to sound even at a low volume.
    public static let fadeInRange: ClosedRange<Double> = 0...300
    public static let defaultFadeIn: Double = 60

    public init(id: Int = 0, time: AlarmTime, days: AlarmDays = .everyDay, source: Source, fadeIn: Double = Alarm.defaultFadeIn, volume: Volume? = nil) {
        self.id = id
        self.time = time
        self.days = days
        self.source = source
        self.fadeIn = fadeIn.isFinite ? min(Self.fadeInRange.upperBound, max(0, fadeIn)) : Self.defaultFadeIn
        self.volume = volume
    }

    /// When it sounds next after `now` in `zone`.
    public func next(after now: Date, in zone: TimeZone) -> Date {
        AlarmSchedule.next(after: now, time: time, days: days, in: zone)
    }
}
