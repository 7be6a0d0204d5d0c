import Foundation
import Logging
import PlayerCore

/// The log's record of what an alarm told: its id, when it was due, the error's fields; never
/// what it plays (a station's name is the listener's own).
enum AlarmLog {
    static func record(_ notice: AlarmNotice, alarm: Alarm, logger: Logger) {
        var metadata: Logger.Metadata = ["alarm": "\(alarm.id)"]
        func due(_ date: Date) { metadata["due"] = "\(timestamp(date))" }
        func error(_ error: PlaybackError) {
            for (key, value) in LogFields.error(error) { metadata[key] = .string(value) }
        }
        switch notice {
        case .waiting(let date):
            due(date)
            logger.info("alarm waiting", metadata: metadata)
        case .sounding(let date):
            due(date)
            logger.notice("alarm sounding", metadata: metadata)
        case .sounded(let date):
            due(date)
            logger.info("alarm heard", metadata: metadata)
        case .fellBack(let date, let failure):
            due(date)
            error(failure)
            logger.warning("alarm source did not sound; tone instead", metadata: metadata)
        case .missed(let date, let noticed, let failure):
            due(date)
            metadata["noticed"] = "\(timestamp(noticed))"
            error(failure)
            logger.warning("alarm missed", metadata: metadata)
        case .failed(let date, let failure):
            due(date)
            error(failure)
            logger.error("alarm could not sound", metadata: metadata)
        case .cancelled:
            logger.info("alarm cancelled", metadata: metadata)
        }
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
