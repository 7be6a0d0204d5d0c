import Foundation

/// Renders the state model from the code itself — the states, their properties and actions, and
/// the transition table — so `tonearm states --markdown` and docs/STATES.md cannot drift from it.
package enum StateDocumentation {
    /// One line per state: what it means.
    package static func summary(of name: PlayerState.Name) -> String {
        switch name {
        case .idle: "Nothing loaded."
        case .preparing: "Opening a source (file, episode, stream connection)."
        case .preparingCrossfade: "The current track plays while the next loads on the other deck."
        case .playing: "One deck is audible."
        case .buffering: "Waiting for data (initial fill or underrun), with fill progress."
        case .seeking: "A jump in a network item waits for data at its target; from and to shown."
        case .crossfading: "Both decks audible; progress 0...1; quick finish possible from 50 %."
        case .paused: "Paused by the user at a position."
        case .crossfadePaused: "Paused mid-crossfade, with a snapshot and a resume strategy."
        case .fadingOut: "Fading to silence before finishing (stop, or the end of the last item)."
        case .reconnecting: "An automatic retry is scheduled: attempt n of max, countdown, cause."
        case .finished: "Everything queued played to its end."
        case .failed: "Stopped on an error; Retry resumes at the saved point when recoverable."
        }
    }

    /// Representative states of each case, covering the associated values that change what a state
    /// allows (seekable or live, recoverable or not).
    package static func samples(of name: PlayerState.Name) -> [PlayerState] {
        let file = Track(id: "doc:file", url: URL(fileURLWithPath: "/doc.flac"), kind: .file, duration: 60)
        let next = Track(id: "doc:next", url: URL(fileURLWithPath: "/next.flac"), kind: .file, duration: 60)
        let live = Track(id: "doc:live", url: URL(string: "http://127.0.0.1/live")!, kind: .liveStream)
        let snapshot = CrossfadePauseSnapshot(
            activeVolume: 0.7, inactiveVolume: 0.7, activePosition: 1, inactivePosition: 1, activePlayer: .a,
            originalDuration: 10, curve: .equalPower, takenAt: .zero)
        let cause = PlaybackError(.connectionLost)
        switch name {
        case .idle: return [.idle]
        case .preparing: return [.preparing(track: file)]
        case .preparingCrossfade: return [.preparingCrossfade(currentTrack: file, nextTrack: next)]
        case .playing: return [.playing(track: file), .playing(track: live)]
        case .buffering: return [.buffering(track: file, progress: 0.5, reason: .underrun), .buffering(track: live, progress: 0.5, reason: .initial)]
        case .seeking:
            let episode = Track(id: "doc:episode", url: URL(string: "http://127.0.0.1/episode.mp3")!, kind: .episode, duration: 600)
            return [.seeking(track: episode, from: 12, to: 300)]
        case .crossfading: return [.crossfading(fromTrack: file, toTrack: next, progress: 0.3, canQuickFinish: false)]
        case .paused: return [.paused(track: file, position: 1), .paused(track: live, position: 0)]
        case .crossfadePaused:
            return [.crossfadePaused(fromTrack: file, toTrack: next, progress: 0.3, resumeStrategy: .continueFromProgress, savedState: snapshot)]
        case .fadingOut: return [.fadingOut(track: file, targetDuration: 0.5)]
        case .reconnecting: return [.reconnecting(track: live, attempt: 1, maxAttempts: 9, nextRetryAt: PlayerTime(seconds: 1), cause: cause)]
        case .finished: return [.finished]
        case .failed:
            return [
                .failed(error: cause, recoverable: true, resumePoint: ResumePoint(track: file, position: 1)),
                .failed(error: PlaybackError(.corruptData), recoverable: false, resumePoint: nil),
            ]
        }
    }

    /// Actions of a state case; those allowed only for some associated values carry a `*`.
    package static func actions(of name: PlayerState.Name) -> String {
        let sets = samples(of: name).map { Set($0.allowedActions) }
        let union = sets.reduce(Set<PlayerAction>()) { $0.union($1) }
        let always = sets.dropFirst().reduce(sets.first ?? []) { $0.intersection($1) }
        let words = PlayerAction.allCases.filter(union.contains).map { always.contains($0) ? $0.rawValue : "\($0.rawValue)*" }
        return words.isEmpty ? "—" : words.joined(separator: ", ")
    }

    /// The Markdown docs/STATES.md embeds between its generated-section markers.
    package static func markdown() -> String {
        var out: [String] = []
        out.append("```mermaid")
        out.append("stateDiagram-v2")
        out.append("    [*] --> idle")
        for rule in PlayerState.transitionTable {
            out.append("    \(rule.from.rawValue) --> \(rule.to.rawValue)")
        }
        out.append("```")
        out.append("")
        out.append("| state | meaning | allowed actions | active | loading | progress | colour |")
        out.append("|---|---|---|---|---|---|---|")
        for name in PlayerState.Name.allCases {
            let s = samples(of: name)[0]
            out.append("| `\(name.rawValue)` | \(summary(of: name)) | \(actions(of: name)) | \(mark(s.isActive)) | \(mark(s.showsLoading)) | \(mark(s.showsProgress)) | \(s.indicatorColor.rawValue) |")
        }
        out.append("")
        out.append("`*` only for some values: `seek` for seekable (non-live) tracks, `retry` for recoverable failures that kept a resume point.")
        out.append("")
        out.append("| from | to | trigger | origin |")
        out.append("|---|---|---|---|")
        for rule in PlayerState.transitionTable {
            out.append("| `\(rule.from.rawValue)` | `\(rule.to.rawValue)` | \(rule.trigger) | \(rule.origin.rawValue) |")
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// A plain-text listing for terminals.
    package static func plainText() -> String {
        var out: [String] = ["States:"]
        let width = PlayerState.Name.allCases.map(\.rawValue.count).max() ?? 0
        for name in PlayerState.Name.allCases {
            out.append("  " + name.rawValue.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + summary(of: name) + "  [" + actions(of: name) + "]")
        }
        out.append("")
        out.append("Transitions:")
        for rule in PlayerState.transitionTable {
            let pair = "\(rule.from.rawValue) -> \(rule.to.rawValue)"
            out.append("  " + pair.padding(toLength: 2 * width + 4, withPad: " ", startingAt: 0) + "  " + rule.trigger)
        }
        return out.joined(separator: "\n") + "\n"
    }

    private static func mark(_ flag: Bool) -> String { flag ? "yes" : "" }
}
