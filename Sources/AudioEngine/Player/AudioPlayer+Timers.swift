import PlayerCore

/// The state machine's timers, on the injected clock.
extension AudioPlayer {
    /// Runs `timer` until `at` on the injected clock, replacing the timer in its slot.
    func schedule(_ timer: PlayerTimer, at: PlayerTime) {
        let clock = self.clock
        timers.arm(timer.slot) { token in
            Task(executorPreference: executor) { [weak self] in
                do {
                    try await clock.sleep(at.seconds - clock.now())
                } catch {
                    return
                }
                await self?.fire(timer, token: token)
            }
        }
    }

    /// A timer is due; one replaced or cancelled while its sleep ended is dropped here.
    func fire(_ timer: PlayerTimer, token: UInt64) {
        guard timers.fire(timer.slot, token: token) else { return }
        // A stall is decided on the connections' latest facts, not on ones still queued.
        if timer == .stallCheck { for deck in [DeckID.a, .b] { deliverConnectionNews(deck) } }
        apply(.timerFired(timer, at: PlayerTime(seconds: clock.now())))
    }
}
