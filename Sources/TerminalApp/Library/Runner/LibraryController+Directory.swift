import PlayerCore
import Services

extension LibraryController {
    /// Asks the directory; its answer (or why it could not be asked) comes back numbered.
    func searchDirectory(_ query: StationQuery, search: Int) {
        Task { [directory] in
            let found: Result<[DirectoryStation], PlaybackError>
            do throws(PlaybackError) {
                found = .success(try await directory.get().search(query))
            } catch {
                found = .failure(error)
            }
            self.dispatch(.directoryAnswered(search: search, found))
        }
    }

    /// Counted through this screen's directory (the one it searches), in the background.
    func countClick(directoryID: String) {
        guard case .success(let directory) = directory else { return }
        Task { await directory.countClick(id: directoryID) }
    }
}
