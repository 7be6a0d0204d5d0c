import Foundation
import PlayerCore

/// The tone an alarm plays when its source does not sound: Tonearm's own `tonearm:alarm` chime,
/// which needs no network, no library and no file, and repeats for as long as it plays.
///
/// Test seam: `TONEARM_TEST_ALARM_TONE` names an audio file played (looped) instead, for tests
/// that must hear the fallback before the built-in sounds can be decoded.
package enum AlarmFallback {
    package static let testToneVariable = "TONEARM_TEST_ALARM_TONE"
    /// How long a file standing in for the tone loops: a day, which "until stopped" never reaches.
    static let fileLoopSeconds: TimeInterval = 86_400

    /// The fallback's request; `attempt` keeps each sounding's track id distinct.
    package static func request(attempt: Int, environment: [String: String] = ProcessInfo.processInfo.environment) -> PlayRequest {
        let id = "alarm-tone-\(attempt)"
        guard let path = environment[testToneVariable], !path.isEmpty else {
            return PlayRequest(track: Track(id: id, url: BuiltInSound.alarm.url, kind: .file, title: "Alarm"))
        }
        let url = URL(fileURLWithPath: path)
        return PlayRequest(track: Track(id: id, url: url, kind: .file, title: "Alarm", loop: SourceLoop(.seconds(fileLoopSeconds))))
    }
}
