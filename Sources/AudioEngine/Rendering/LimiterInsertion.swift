import Foundation
import PlayerCore

/// When the true-peak limiter joins the mix. It keeps the mix under -1 dBTP once levelling or a
/// volume above 100 % can push it there, and it delays the sound by 1.5 ms, so once in it stays
/// (taking it out and putting it back would move the sound twice). Its delay line starts empty:
/// inserted mid-sound it would click, so it goes in at a silent moment of the master gain.
struct LimiterInsertion {
    /// The limiter, once in the chain.
    private(set) var limiter: TruePeakLimiter?
    /// The limiter is wanted and goes in at the next silent moment.
    private var wanted = false
    /// Where the master gain returns after the limiter's dip.
    private var resumeLevel = 1.0

    /// `inChain`: in from the first frame (nothing sounds yet).
    init(inChain: Bool) {
        if inChain { limiter = TruePeakLimiter(ceilingDecibels: LoudnessLevelling.truePeakCeiling) }
    }

    /// Wants the limiter in: at once when `silentNow` (nothing sounds, or the output holds), else
    /// at the next silent frame (see `pursue`).
    mutating func want(silentNow: Bool) {
        guard limiter == nil, !wanted else { return }
        wanted = true
        if silentNow { insertIfWanted() }
    }

    /// Before each block while the limiter is wanted: in at once when the master gain is silent
    /// (a start, the end of a pause or a fade); else a 10 ms dip to silence, after which it goes
    /// in and the gain comes back (`dipEnded`). A pause or a fade already under way brings the
    /// silence itself.
    mutating func pursue(_ master: inout MasterGain) {
        guard wanted, limiter == nil else { return }
        if master.value == 0 {
            insertIfWanted()
        } else if master.completion == .none {
            resumeLevel = master.isRamping ? master.target : master.value
            master.ramp(to: 0, frames: MasterGain.declickFrames, shape: .cosine, completion: .insertLimiter)
        }
    }

    /// The master gain reached the bottom of the dip: the limiter goes in and the gain returns.
    mutating func dipEnded(_ master: inout MasterGain) {
        insertIfWanted()
        master.ramp(to: resumeLevel, frames: MasterGain.declickFrames, shape: .cosine, completion: .none)
    }

    /// Puts a wanted limiter in now (the output is silent).
    mutating func insertIfWanted() {
        guard wanted, limiter == nil else { return }
        wanted = false
        limiter = TruePeakLimiter(ceilingDecibels: LoudnessLevelling.truePeakCeiling)
    }
}
