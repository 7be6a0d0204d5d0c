extension LibraryController {
    /// The Diagnostics tab's summaries, read in the background.
    func loadDiagnostics() {
        Task { [library] in
            let summary = try? await library.analytics.summary()
            let retries = try? await library.retryStatistics.persistedSummary()
            self.dispatch(.diagnosticsLoaded(summary, retries))
        }
    }
}
