import PlayerCore

/// The connectivity banner: shown only while offline.
package struct ConnectivityBannerState: Sendable, Hashable, Codable {
    package let isVisible: Bool
    package let icon: Icon
    /// "No Internet Connection" / "Нет подключения к интернету".
    package let text: String

    package init(connectivity: Connectivity, language: Language) {
        isVisible = connectivity == .offline
        icon = .offline
        text = UIStrings.text(.offlineBanner, in: language)
    }
}
