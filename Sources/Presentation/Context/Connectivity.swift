/// What the app knows about the network (a connectivity monitor's verdict, as a value).
package enum Connectivity: String, Sendable, Hashable, Codable, CaseIterable {
    case online
    case offline
    /// Not known yet (no monitor, or it has not reported): treated as online, no banner.
    case unknown
}
