import Foundation
import PlayerCore

/// The JSON of the gpodder.net API v2 (the API that gpodder.net, oPodSync and other sync servers
/// answer, and that AntennaPod, Kasts and gPodder speak), as Tonearm sends and reads it.
///
/// Everything read comes from a server Tonearm does not control, so decoding is lenient where
/// servers and clients differ (timestamps with or without a zone, numbers as strings, `-1` or no
/// value for "unknown" as AntennaPod and gPodder send them) and strict where a wrong value would
/// hurt the listener: an action without a podcast or episode address, or a play action without a
/// place (no position, or `-1`), is dropped rather than applied.
package enum GpodderWire {
    /// `GET /api/2/subscriptions/USER/DEVICE.json?since=T`: what changed after `since`.
    package struct SubscriptionChanges: Decodable, Sendable, Equatable {
        package var add: [String]
        package var remove: [String]
        package var timestamp: Int64

        package init(add: [String], remove: [String], timestamp: Int64) {
            self.add = add
            self.remove = remove
            self.timestamp = timestamp
        }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            add = GpodderWire.addresses(try container.decodeIfPresent(LenientList.self, forKey: .add)?.values ?? [])
            remove = GpodderWire.addresses(try container.decodeIfPresent(LenientList.self, forKey: .remove)?.values ?? [])
            timestamp = try container.decode(LenientInteger.self, forKey: .timestamp).value
        }

        private enum Keys: String, CodingKey { case add, remove, timestamp }
    }

    /// The body of `POST /api/2/subscriptions/USER/DEVICE.json`.
    package struct SubscriptionUpload: Encodable, Sendable, Equatable {
        package var add: [String]
        package var remove: [String]

        package init(add: [String], remove: [String]) {
            self.add = add
            self.remove = remove
        }
    }

    /// What an upload returns: the server's timestamp after it, and the addresses it rewrote
    /// (`[old, new]` pairs; a server may clean up an address it was given).
    package struct UploadResult: Decodable, Sendable, Equatable {
        package var timestamp: Int64
        package var updatedURLs: [[String]]

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            timestamp = try container.decode(LenientInteger.self, forKey: .timestamp).value
            updatedURLs = (try? container.decodeIfPresent([[String]].self, forKey: .updatedURLs)) ?? []
        }

        private enum Keys: String, CodingKey {
            case timestamp
            case updatedURLs = "update_urls"
        }
    }

    /// `GET /api/2/episodes/USER.json?since=T`: the actions after `since`, and the timestamp to
    /// ask from next time. Actions that cannot be used are dropped one by one (`dropped` counts
    /// them), so one bad action from another client does not stop the others.
    package struct EpisodeActions: Decodable, Sendable {
        package var actions: [EpisodeAction]
        package var timestamp: Int64
        package var dropped: Int

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            timestamp = try container.decode(LenientInteger.self, forKey: .timestamp).value
            let raw = try container.decodeIfPresent([Failable<EpisodeAction>].self, forKey: .actions) ?? []
            actions = raw.compactMap(\.value)
            dropped = raw.count - actions.count
        }

        private enum Keys: String, CodingKey { case actions, timestamp }
    }

    /// One episode action. `play` carries where listening ended (`position`, required) and, when
    /// the sender knew them, where it began and the episode's length; the others carry no numbers.
    package struct EpisodeAction: Codable, Sendable, Equatable {
        package enum Kind: String, Codable, Sendable {
            case play, download, delete, new
        }

        /// The feed's address.
        package var podcast: String
        /// The audio file's address (the enclosure).
        package var episode: String
        /// The feed's guid for the episode, when known: matched before the address.
        package var guid: String?
        package var action: Kind
        package var timestamp: Date
        /// Seconds, for `play`.
        package var started: Int?
        package var position: Int?
        package var total: Int?
        package var device: String?

        package init(
            podcast: String, episode: String, guid: String?, action: Kind, timestamp: Date, started: Int? = nil, position: Int? = nil,
            total: Int? = nil, device: String? = nil
        ) {
            self.podcast = podcast
            self.episode = episode
            self.guid = guid
            self.action = action
            self.timestamp = timestamp
            self.started = started
            self.position = position
            self.total = total
            self.device = device
        }

        /// Whether this action may be sent or applied: both addresses present and http(s); a play
        /// action's position there and not negative, and `started` and `total`, when known, in
        /// order around it (`total` above 0); no numbers on the other actions.
        package var isUsable: Bool {
            guard GpodderWire.isAddress(podcast), GpodderWire.isAddress(episode) else { return false }
            switch action {
            case .play:
                guard let position, position >= 0 else { return false }
                if let started, started < 0 || started > position { return false }
                if let total, total <= 0 || position > total { return false }
                return true
            case .download, .delete, .new:
                return started == nil && position == nil && total == nil
            }
        }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            podcast = try container.decode(String.self, forKey: .podcast).trimmingCharacters(in: .whitespaces)
            episode = try container.decode(String.self, forKey: .episode).trimmingCharacters(in: .whitespaces)
            guid = try? container.decodeIfPresent(String.self, forKey: .guid).flatMap { $0.isEmpty ? nil : $0 }
            let name = try container.decode(String.self, forKey: .action).lowercased()
            guard let kind = Kind(rawValue: name) else {
                throw DecodingError.dataCorruptedError(forKey: .action, in: container, debugDescription: "unknown action")
            }
            action = kind
            let stamp = try container.decode(String.self, forKey: .timestamp)
            guard let date = GpodderWire.date(stamp) else {
                throw DecodingError.dataCorruptedError(forKey: .timestamp, in: container, debugDescription: "unreadable timestamp")
            }
            timestamp = date
            func number(_ key: Keys) -> Int? {
                (try? container.decodeIfPresent(LenientInteger.self, forKey: key))??.value.clampedToInt
            }
            device = try? container.decodeIfPresent(String.self, forKey: .device)
            if kind == .play {
                // `-1` (AntennaPod's "unknown"), 0 for a length, or a start past the place mean
                // "not known": the place stands without them. A place past the length is the end
                // (senders round both).
                let place = number(.position)
                total = number(.total).flatMap { $0 > 0 ? $0 : nil }
                position = place.map { place in total.map { place > $0 ? $0 : place } ?? place }
                started = number(.started).flatMap { $0 >= 0 && $0 <= (position ?? -1) ? $0 : nil }
            } else {
                // Numbers on a download, delete or new say nothing Tonearm uses.
                (started, position, total) = (nil, nil, nil)
            }
            // A play action without a place, or `-1` for it, would move the listener somewhere
            // they never were: refuse the action rather than guess.
            guard isUsable else {
                throw DecodingError.dataCorruptedError(forKey: .action, in: container, debugDescription: "unusable action")
            }
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(podcast, forKey: .podcast)
            try container.encode(episode, forKey: .episode)
            try container.encodeIfPresent(guid, forKey: .guid)
            try container.encode(action, forKey: .action)
            try container.encode(GpodderWire.timestampString(timestamp), forKey: .timestamp)
            try container.encodeIfPresent(started, forKey: .started)
            try container.encodeIfPresent(position, forKey: .position)
            try container.encodeIfPresent(total, forKey: .total)
            try container.encodeIfPresent(device, forKey: .device)
        }

        private enum Keys: String, CodingKey {
            case podcast, episode, guid, action, timestamp, started, position, total, device
        }
    }

    /// The body of `POST /api/2/devices/USER/DEVICE.json`.
    package struct DeviceUpload: Encodable, Sendable {
        package var caption: String
        package var type: String

        package init(caption: String, type: String = "desktop") {
            self.caption = caption
            self.type = type
        }
    }

    /// Decodes a server's answer; anything that is not the API's JSON (a captive portal's page,
    /// an error page with 200, a truncated body) is `malformedData`.
    package static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(PlaybackError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw PlaybackError(.malformedData, underlying: "the sync server's answer is not the API's JSON")
        }
    }

    /// `2009-12-12T09:00:00`: the API's timestamps are UTC without a zone.
    package static func timestampString(_ date: Date) -> String {
        let rfc = FeedDate.isoString(from: date)
        return String(rfc.prefix(19))
    }

    /// A timestamp as servers write it: the API's own form (UTC), or with a zone or fractions.
    package static func date(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.count >= 10, trimmed.count <= 40 else { return nil }
        let hasZone = trimmed.hasSuffix("Z") || trimmed.dropFirst(19).contains(where: { $0 == "+" || $0 == "-" })
        return FeedDate.parse(hasZone || !trimmed.contains("T") ? trimmed : trimmed + "Z")
    }

    /// An http(s) address no longer than a feed's addresses may be.
    package static func isAddress(_ text: String) -> Bool {
        guard !text.isEmpty, text.count <= LibraryLimits.maxURLLength, let url = URL(string: text),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host?.isEmpty == false
        else { return false }
        return true
    }

    static func addresses(_ values: [String]) -> [String] {
        values.map { $0.trimmingCharacters(in: .whitespaces) }.filter(isAddress)
    }

    /// A list whose elements that are not strings are skipped.
    private struct LenientList: Decodable {
        var values: [String]

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            var values: [String] = []
            while !container.isAtEnd {
                if let value = try? container.decode(String.self) {
                    values.append(value)
                } else {
                    _ = try? container.decode(Failable<String>.self)
                }
            }
            self.values = values
        }
    }

    /// A whole number written as a number or a string (servers differ).
    struct LenientInteger: Decodable {
        var value: Int64

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int64.self) {
                value = number
            } else if let real = try? container.decode(Double.self), real.isFinite, abs(real) < 1e15 {
                value = Int64(real.rounded(.down))
            } else if let text = try? container.decode(String.self), let number = Int64(text.trimmingCharacters(in: .whitespaces)) {
                value = number
            } else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a whole number")
            }
        }
    }

    /// An element decoded on its own: nil when it does not decode, so the list goes on.
    struct Failable<T: Decodable>: Decodable {
        var value: T?

        init(from decoder: any Decoder) throws {
            value = try? T(from: decoder)
        }
    }
}

extension Int64 {
    fileprivate var clampedToInt: Int? {
        self >= Int64(Int32.min) && self <= Int64(Int32.max) ? Int(self) : nil
    }
}
