import Foundation
import PlayerCore

/// The account's devices as the gpodder.net API v2 lists them, and its Device Synchronization
/// API: on gpodder.net and the servers that follow it, each device of an account keeps its own
/// subscription list unless devices are linked into a sync group, so a new library sees the
/// account's podcasts only once it is linked with the devices that have them (or joins one).
extension GpodderWire {
    /// One entry of `GET /api/2/devices/USER.json`.
    package struct Device: Decodable, Sendable, Equatable {
        /// The device id: letters, digits, `.`, `-`, `_` (the API's own rule).
        package var id: String
        package var caption: String
        package var type: String
        package var subscriptions: Int

        package init(id: String, caption: String = "", type: String = "other", subscriptions: Int = 0) {
            self.id = id
            self.caption = caption
            self.type = type
            self.subscriptions = subscriptions
        }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            id = try container.decode(String.self, forKey: .id)
            guard GpodderWire.isDeviceID(id) else {
                throw DecodingError.dataCorruptedError(forKey: .id, in: container, debugDescription: "not a device id")
            }
            // Captions are typed by people on other devices: shown on a terminal, so sanitised here.
            caption = TextSanitizer.singleLine((try? container.decodeIfPresent(String.self, forKey: .caption)) ?? "", maxLength: 80)
            type = TextSanitizer.singleLine((try? container.decodeIfPresent(String.self, forKey: .type)) ?? "other", maxLength: 16)
            let count = (try? container.decodeIfPresent(LenientInteger.self, forKey: .subscriptions))?.value ?? 0
            subscriptions = Int(clamping: max(0, min(count, 1_000_000)))
        }

        private enum Keys: String, CodingKey { case id, caption, type, subscriptions }
    }

    /// `GET /api/2/devices/USER.json`: entries that are not a device are skipped, and the list
    /// is capped (an account has a handful; a hostile answer could list millions).
    package struct Devices: Decodable, Sendable, Equatable {
        package var devices: [Device]

        package init(devices: [Device]) { self.devices = devices }

        package init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            var devices: [Device] = []
            var seen = Set<String>()
            while !container.isAtEnd, devices.count < GpodderWire.maxDevices {
                guard let device = try container.decode(Failable<Device>.self).value, seen.insert(device.id).inserted else { continue }
                devices.append(device)
            }
            self.devices = devices
        }
    }

    /// `GET` and `POST /api/2/sync-devices/USER.json`: which devices share their subscriptions.
    package struct SyncGroups: Decodable, Sendable, Equatable {
        /// Each group's device ids.
        package var synchronized: [[String]]
        package var notSynchronized: [String]

        package init(synchronized: [[String]], notSynchronized: [String]) {
            self.synchronized = synchronized
            self.notSynchronized = notSynchronized
        }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            let groups = (try? container.decodeIfPresent([Failable<[String]>].self, forKey: .synchronized)) ?? nil
            synchronized = (groups ?? []).prefix(GpodderWire.maxDevices).compactMap { $0.value?.filter(GpodderWire.isDeviceID) }
                .filter { !$0.isEmpty }
            let single = (try? container.decodeIfPresent([Failable<String>].self, forKey: .notSynchronized)) ?? nil
            notSynchronized = (single ?? []).prefix(GpodderWire.maxDevices).compactMap(\.value).filter(GpodderWire.isDeviceID)
        }

        /// The devices `device` shares its subscriptions with (itself left out).
        package func linked(with device: String) -> [String] {
            synchronized.first { $0.contains(device) }?.filter { $0 != device } ?? []
        }

        private enum Keys: String, CodingKey {
            case synchronized
            case notSynchronized = "not-synchronized"
        }
    }

    /// The body of `POST /api/2/sync-devices/USER.json`: the groups to form (each replaces the
    /// groups its devices were in) and the devices to take out of theirs.
    package struct SyncGroupsUpdate: Encodable, Sendable, Equatable {
        package var synchronize: [[String]]
        package var stopSynchronize: [String]

        package init(synchronize: [[String]], stopSynchronize: [String] = []) {
            self.synchronize = synchronize
            self.stopSynchronize = stopSynchronize
        }

        private enum CodingKeys: String, CodingKey {
            case synchronize
            case stopSynchronize = "stop-synchronize"
        }
    }

    /// The most devices read from one answer.
    package static let maxDevices = 256

    /// The API's device ids: letters, digits, `.`, `-` and `_`, 1 to 64 of them.
    package static func isDeviceID(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count) && text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2E || byte == 0x2D
                || byte == 0x5F
        }
    }
}
