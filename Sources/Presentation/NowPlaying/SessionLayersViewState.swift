import Foundation
import PlayerCore

/// What Now Playing, the line modes and a render's progress say about the layers of a session
/// (a timer's, or a guided session's bed and bells): how far it is on its own clock, the next
/// bell, and the bed. A pure function of the player's `SessionLayersStatus`.
package struct SessionLayersViewState: Sendable, Hashable, Codable {
    /// "Elapsed 12:00 · 8:00 left", or "Elapsed 12:00 (open-ended)" for a session without an end.
    package let clockText: String
    /// "Next bell in 3:00", "End bell in 8:00", "No bells left"; nil for a session without bells.
    package let bellText: String?
    /// "Bed: ducked 15%"; nil for a session without a bed.
    package let bedText: String?
    /// The same as sentences, for a screen reader.
    package let spokenText: String

    package init(status: SessionLayersStatus, language: Language) {
        func t(_ key: UIString, _ arguments: any CVarArg...) -> String { Texts.format(key.catalogKey, in: language, arguments: arguments) }
        let elapsed = t(.sessionElapsed, TimeText.clock(status.elapsed))
        // A countdown rounds up, as any timer's: "0:00 left" only at the end.
        let remaining = status.remaining.map { t(.sessionRemaining, TimeText.clock($0.rounded(.up))) }
        clockText = remaining.map { "\(elapsed) · \($0)" } ?? "\(elapsed) \(t(.sessionOpenEnded))"
        if let next = status.nextBell {
            // Whole seconds up, so a bell due in 0.4 s says 0:01 rather than a bell "in 0:00" that has not rung.
            let wait = TimeText.clock(max(0, next.at - status.elapsed).rounded(.up))
            bellText = t(next.kind == .end ? .endBellIn : .nextBellIn, wait)
        } else {
            bellText = status.strikesRung > 0 ? t(.noBellsLeft) : nil
        }
        bedText = status.bed.map { bed in
            t(.bed, Texts.string(Self.phaseKey(bed.phase), in: language), Int((Double(bed.level) * 100).rounded()))
        }
        spokenText = Sentences.join([elapsed, remaining, bellText, bedText].compactMap { $0 })
    }

    /// The bell and the bed on one line: "Next bell in 3:00 · Bed: playing 60%"; nil with neither.
    package var detailText: String? {
        let parts = [bellText, bedText].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// Everything on one line, for the line mode: "Elapsed 5:00 · 15:00 left · Next bell in 5:00 · Bed: playing 60%".
    package var lineText: String { ([clockText] + [detailText].compactMap { $0 }).joined(separator: " · ") }

    /// A bell as it sounds: "Bell at 5:00", "End bell at 20:00", or "Bell at 5:00 skipped by a seek".
    package static func bellText(_ strike: BellStrike, language: Language) -> String {
        let at = TimeText.clock(strike.cue.at)
        if strike.skipped { return UIStrings.format(.bellSkipped, in: language, at) }
        switch strike.cue.kind {
        case .start: return UIStrings.text(.bellStart, in: language)
        case .interval: return UIStrings.format(.bellAt, in: language, at)
        case .end: return UIStrings.format(.bellEnd, in: language, at)
        }
    }

    /// A bell and where the session is, as sentences: "Bell at 5:00. Elapsed 5:00. 15:00 left.
    /// Next bell in 5:00."
    package static func spokenBell(_ strike: BellStrike, layers: SessionLayersViewState?, language: Language) -> String {
        Sentences.join([bellText(strike, language: language)] + (layers.map { [$0.spokenText] } ?? []))
    }

    private static func phaseKey(_ phase: BedStatus.Phase) -> UIString {
        switch phase {
        case .loading: .bedLoading
        case .fadingIn: .bedFadingIn
        case .playing: .bedPlaying
        case .ducking: .bedDucking
        case .ducked: .bedDucked
        case .releasing: .bedReleasing
        case .fadingOut: .bedFadingOut
        case .ended: .bedEnded
        }
    }
}
