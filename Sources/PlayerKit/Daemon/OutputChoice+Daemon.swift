extension OutputChoice {
    /// The machine's sound, which the user's one daemon owns while it runs: a second player there
    /// would play over it. A file or the null output disturbs nobody.
    package var isSharedSound: Bool {
        switch self {
        case .pulse, .snapcast: true
        case .wav, .null, .fifo: false
        }
    }
}
