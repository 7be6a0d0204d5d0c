/// Whether the listener agreed to share error counts. Nothing leaves the machine unless it is
/// `granted`. The question is asked at most once, so `declined` is as settled as `granted`: only
/// the listener changes either (`tonearm analytics share on|off`).
public enum AnalyticsConsent: String, Sendable, Hashable, CaseIterable {
    /// Never asked, never answered: nothing is shared, and the listener may be asked once.
    case undecided
    case granted
    case declined

    public var allowsSharing: Bool { self == .granted }
    /// True only while the question has never been answered.
    public var mayAsk: Bool { self == .undecided }
}
