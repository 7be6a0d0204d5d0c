import Logging

extension LogEvent {
    /// The metadata a record carries, as swift-log's handlers merge it: the handler's own, then
    /// the provider's, then the call's, each later one winning on a key; an error under `error`.
    package func metadata(over handler: Logger.Metadata, provider: Logger.MetadataProvider?) -> Logger.Metadata {
        var merged = handler
        if let provided = provider?.get() { merged.merge(provided) { _, new in new } }
        if let own = metadata { merged.merge(own) { _, new in new } }
        if let error { merged["error"] = .string(String(describing: error)) }
        return merged
    }
}
