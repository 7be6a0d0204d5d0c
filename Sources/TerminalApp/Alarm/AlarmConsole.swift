import Foundation
import PlayerCore
import PlayerKit
import Presentation

/// What an alarm waiting in its own process writes on stdout: its notices and the player's states
/// as lines (the states as `tonearm play` writes them), or everything as `--events jsonl`.
/// Each line is written whole and unbuffered, so a reader on a pipe sees it at once.
package final class AlarmConsole: Sendable {
    let alarm: Alarm
    let jsonEvents: Bool
    let zone: TimeZone
    let wall: AlarmWallClock
    let language: Language

    package init(alarm: Alarm, jsonEvents: Bool, zone: TimeZone, wall: AlarmWallClock, language: Language = .current) {
        self.alarm = alarm
        self.jsonEvents = jsonEvents
        self.zone = zone
        self.wall = wall
        self.language = language
    }

    package func tell(_ notice: AlarmNotice) {
        let now = wall.now()
        if jsonEvents {
            write(AlarmEventLine.json(for: notice, alarm: alarm, now: now, zone: zone, language: language))
        } else {
            write(AlarmTexts.line(for: notice, source: alarm.source.description, now: now, zone: zone, language: language))
        }
    }

    /// A player's update; `lastState` is the name of the state last written (lines mode writes a
    /// state only when its name changes).
    package func show(_ update: PlayerUpdate, lastState: inout PlayerState.Name?) {
        if jsonEvents { return write(EventLine.json(for: update, language: language)) }
        guard case .state(let state, _, _) = update, state.name != lastState else { return }
        lastState = state.name
        write(state.displayText(in: language))
    }

    package func note(_ text: String) {
        guard !jsonEvents else { return }
        write(text)
    }

    private func write(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
