import PlayerCore

/// Transcripts: asked for when an item loads, published with the current item, and the cue its
/// position is in told as it changes, so every front end follows the voice from the same facts.
extension AudioPlayer {
    /// Publishes the current item's transcript when it changed (its cue cleared first, then the
    /// cue at the last position, as chapters are).
    func publishTranscript() {
        let current = machine.state.currentTrack?.id
        guard let change = transcripts.change(current: current) else { return }
        if transcripts.clearCue() { continuation.yield(.notice(.cue(nil), audioTime: audioTime)) }
        continuation.yield(.notice(.transcript(change), audioTime: audioTime))
        if let last = lastPosition, last.trackID == current, let moved = transcripts.cueChange(at: last.seconds) {
            continuation.yield(.notice(.cue(moved), audioTime: audioTime))
        }
    }

    /// A transcript learned for an item still on a deck.
    func learned(_ transcript: Transcript, for trackID: String) {
        guard deckTracks.values.contains(trackID) else { return }
        log.transcript(cues: transcript.cues.count, timed: transcript.timed)
        transcripts.learned(transcript, for: trackID)
        publishTranscript()
    }

    /// Asks the transcript source for a loading item's transcript, once per item.
    func askTranscript(for track: Track) {
        guard let source = transcriptSource, !track.isLive, transcripts.asks(track.id) else { return }
        let log = self.log
        Task(executorPreference: executor) { [weak self] in
            switch await source.transcript(for: track) {
            case .success(let transcript)?: await self?.learned(transcript, for: track.id)
            case .failure(let error)?: log.transcriptUnavailable(error)
            case nil: break
            }
        }
    }
}
