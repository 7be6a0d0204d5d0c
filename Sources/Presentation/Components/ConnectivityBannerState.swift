import PlayerCore

/// The connectivity banner: shown only while offline.
public struct ConnectivityBannerState: Sendable, Hashable, Codable {
    public let isVisible: Bool
    public let icon: Icon
    /// "No Internet Connection" / "Нет подключения к интернету".
    public let text: String

    public init(connectivity: Connectivity, language: Language) {
        isVisible = connectivity == .offline
        icon = .offline
        text = UIStrings.text(.offlineBanner, in: language)
    }
}
