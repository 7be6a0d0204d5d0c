import Foundation
import Library
import PlayerKit

/// The question `tonearm sync setup` asks on a terminal when the account already has devices and
/// no `--link` or `--join` said what to do. Enter takes the default, linking with all of them,
/// which is what a listener setting up a second computer wants; without a terminal nothing is
/// asked and that default applies.
enum SyncLinkPrompt {
    static func ask(devices: [GpodderWire.Device]) -> PodcastSync.Linking {
        guard !devices.isEmpty else { return .all }
        // Reading stdin flushes the line-buffered terminal output, so the question shows first.
        print(question(devices), terminator: "")
        return answer(readLine(), devices: devices) ?? .all
    }

    /// The devices, numbered, and what each answer does.
    static func question(_ devices: [GpodderWire.Device]) -> String {
        var lines = ["This account has \(devices.count == 1 ? "1 device" : "\(devices.count) devices"):"]
        for (index, device) in devices.enumerated() {
            let caption = device.caption.isEmpty ? "" : " \(device.caption),"
            lines.append("  \(index + 1). \(device.id) (\(caption) \(device.type), \(device.subscriptions) subscriptions)")
        }
        lines.append("Link this library with all of them [a], join one as the same device [1-\(devices.count)], or keep it separate [n]? [a] ")
        return lines.joined(separator: "\n")
    }

    /// What a typed answer means; nil (the default) for an empty or unknown one.
    static func answer(_ line: String?, devices: [GpodderWire.Device]) -> PodcastSync.Linking? {
        let typed = (line ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        switch typed {
        case "", "a", "all", "y", "yes", "д", "да": return .all
        case "n", "no", "none", "н", "нет": return PodcastSync.Linking.none
        default:
            guard let number = Int(typed), (1...devices.count).contains(number) else { return nil }
            return .join(devices[number - 1].id)
        }
    }
}
