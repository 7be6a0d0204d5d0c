/// What a filter is decided on: one song as the database or the queue knows it. The player's
/// song types conform where they are defined; the filter asks only for these.
public protocol MPDFilterSubject {
    /// The values of one tag, by its canonical name (`Artist`); empty when the song has none.
    func values(ofTag name: String) -> [String]
    /// Every value of every tag, for `any`.
    var allTagValues: [String] { get }
    /// The song's URI as `file:` shows it.
    var uri: String { get }
    /// When its file last changed, in Unix seconds; nil when unknown (a stream).
    var modified: Int64? { get }
    /// When it was added to the database, in Unix seconds; nil when unknown.
    var added: Int64? { get }
    var audioFormat: MPDAudioFormat? { get }
    /// Its priority in the queue (0 outside it).
    var priority: Int { get }
}
