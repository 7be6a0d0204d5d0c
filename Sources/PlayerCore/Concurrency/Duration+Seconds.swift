extension Duration {
    /// The duration in seconds: the player's arithmetic (positions, timers, buffers) counts time as
    /// a `Double` of seconds, and this is the one conversion from a clock's `Duration`. The other
    /// way is the standard library's `Duration.seconds(_:)`.
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
