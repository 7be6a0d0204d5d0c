import Foundation
import Library
import LibraryKit
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
        while true {
            guard let line = readLine() else { return .all }
            if let linking = answer(line, devices: devices) { return linking }
            print("Type a, n or a number from 1 to \(devices.count): ", terminator: "")
        }
    }

    /// The devices, numbered, and what each answer does.
    static func question(_ devices: [GpodderWire.Device]) -> String {
        var lines = ["This account has \(devices.count == 1 ? "1 device" : "\(devices.count) devices"):"]
        for (index, device) in devices.enumerated() {
            let caption = device.caption.isEmpty ? "" : "\(device.caption), "
            lines.append("  \(index + 1). \(device.id) (\(caption)\(device.type), \(SyncCommands.counted(device.subscriptions, "subscription")))")
        }
        lines.append("Link this library with all of them [a], join one as the same device [1-\(devices.count)], or keep it separate [n]? [a] ")
        return lines.joined(separator: "\n")
    }

    /// What a typed answer means (empty: the default, all); nil for one it does not know.
    static func answer(_ line: String, devices: [GpodderWire.Device]) -> PodcastSync.Linking? {
        let typed = line.trimmingCharacters(in: .whitespaces).lowercased()
        switch typed {
        case "", "a", "all", "y", "yes", "д", "да": return .all
        case "n", "no", "none", "н", "нет": return PodcastSync.Linking.none
        default:
            guard let number = Int(typed), number >= 1, number <= devices.count else { return nil }
            return .join(devices[number - 1].id)
        }
    }
}
