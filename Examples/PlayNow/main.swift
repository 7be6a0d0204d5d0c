// PlayNow: Tonearm embedded in a page. Plays a file or an http(s) address named on the command
// line through PulseAudio (or, with no sound server, into play-now.wav), prints every update, and
// takes commands on stdin: pause, play, stop, next, seek SECONDS, volume PERCENT.
// The README shows the lines between the markers; a test keeps the two the same.
// <example:begin>
import Foundation
import PlayerKit

guard CommandLine.arguments.count == 2 else { fatalError("usage: PlayNow FILE|URL") }
let track = Track.commandLineSource(CommandLine.arguments[1], index: 0, finite: false)
let (session, notice) = try await PlaybackSession.open(
    asked: nil, fallbackWAV: "play-now.wav", fast: false, configuration: .init(), services: TonearmPlayer.Services())
if let notice { print(notice) }
let player = session.player

/// A line of stdin as the command it names; the player's state then says what it means.
@Sendable func command(_ line: String) -> PlayerCommand? {
    let words = line.lowercased().split(separator: " ")
    switch (words.first, words.dropFirst().first.flatMap { Double($0) }) {
    case ("pause", _): return .pause
    case ("play", _): return .play
    case ("stop", _): return .stop
    case ("next", _): return .next
    case ("seek", let seconds?): return .seekTo(seconds)
    case ("volume", let percent?): return .volume(.to(Volume(percent / 100)))
    default: return nil
    }
}

// Reading stdin blocks, so it gets a thread of its own; each command goes to the player from a
// task on the player's own executor, as a key press would.
Thread.detachNewThread {
    while let line = readLine() {
        guard let command = command(line) else { continue }
        Task(executorPreference: player.executor) {
            let intent = command.intent(in: await player.state, position: await player.currentPosition)
            if let intent { try? await player.send(intent) }
        }
    }
}

try await player.play(PlayRequest(track: track))
var ending = SessionEnd(onFailure: .ends)
await player.consumeUpdates { updates in
    for await update in updates {
        print(update)
        if case .state(let state, _, _) = update, ending.isOver(after: state) { await player.shutdown() }
    }
}
await session.finish()
// <example:end>
