/// Which keys do what. Several keys may map to one action; one key never maps to two (a binding
/// set that would do so is refused with the key named).
package struct KeyBindings: Sendable, Hashable {
    package private(set) var keys: [KeyAction: [Key]]

    /// Arrows and jk, Enter play, space pause/resume, s stop, n next, left/right seek, r retry,
    /// x dismiss, a add, / search, ? help, q quit, + and 0 louder, - and 9 quieter (mpv's keys),
    /// z the sleep timer (off, 15, 30, 60 min, end of item), Z five minutes more, ] faster and
    /// [ slower (0.05x a press), L loudness levelling (off, track, session), f find stations in
    /// the directory, l like the song (h and l no longer seek: l is the like every radio app has),
    /// d download the selected episode, u add it (or a station or session) to the queue, K and J
    /// move a queue entry up and down, X takes it off the queue (or removes a station, podcast or
    /// session after a yes), U brings back the last removal, e renames a station, m marks an
    /// episode played (or not), M marks all of a podcast's episodes played,
    /// R refresh every podcast (capital, as a batch of network requests should not be a slip of r),
    /// p the previous chapter and c the list of chapters (n is the next chapter in an item with
    /// chapters, see `KeyAction.command`), v the level meter (a visualiser's letter), t the
    /// transcript, y shares what is playing, b plays the selected episode's soundbite (its
    /// teaser: b is free, and s, the obvious one, stops).
    package static let standard = KeyBindings(uncheckedKeys: [
        .up: [.up, .character("k")], .down: [.down, .character("j")], .play: [.enter], .pauseResume: [.character(" ")],
        .stop: [.character("s")], .next: [.character("n")], .seekBackward: [.left],
        .seekForward: [.right], .retry: [.character("r")], .dismiss: [.character("x")],
        .add: [.character("a")], .search: [.character("/")], .help: [.character("?")], .quit: [.character("q")],
        .volumeUp: [.character("+"), .character("="), .character("0")], .volumeDown: [.character("-"), .character("9")],
        .sleep: [.character("z")], .sleepLonger: [.character("Z")], .faster: [.character("]")], .slower: [.character("[")],
        .loudness: [.character("L")], .directory: [.character("f")], .like: [.character("l")],
        .download: [.character("d")], .enqueue: [.character("u")], .moveUp: [.character("K")], .moveDown: [.character("J")],
        .remove: [.character("X")], .markPlayed: [.character("m")], .markAllPlayed: [.character("M")], .undo: [.character("U")],
        .rename: [.character("e")],
        .refreshAll: [.character("R")],
        .previousChapter: [.character("p")], .chapters: [.character("c")], .levelMeter: [.character("v")],
        .transcript: [.character("t")], .share: [.character("y")],
        .soundbite: [.character("b")],
    ])

    private init(uncheckedKeys: [KeyAction: [Key]]) {
        keys = uncheckedKeys
    }

    /// `standard` with the actions in `overrides` bound to their keys instead. A key the listener
    /// binds is taken from the action it had by default (binding `p` to pause leaves the previous
    /// chapter without a key rather than refusing the file): a configuration written before a
    /// standard key was added keeps working.
    ///
    /// - Throws: `KeyBindingError` for a key name that is not a key, or for a key the overrides
    ///   bind to two actions.
    package init(overriding overrides: [KeyAction: [String]]) throws(KeyBindingError) {
        var keys = Self.standard.keys
        var taken: Set<Key> = []
        for (action, names) in overrides {
            var parsed: [Key] = []
            for name in names {
                guard let key = Key(name: name) else { throw .unknownKey(name) }
                parsed.append(key)
            }
            keys[action] = parsed
            taken.formUnion(parsed)
        }
        for action in KeyAction.allCases where overrides[action] == nil {
            keys[action] = keys[action]?.filter { !taken.contains($0) }
        }
        var owner: [Key: KeyAction] = [:]
        for action in KeyAction.allCases {
            for key in keys[action] ?? [] {
                if let other = owner[key], other != action { throw .keyBoundTwice(key.description, other, action) }
                owner[key] = action
            }
        }
        self.keys = keys
    }

    /// The action `key` is bound to.
    package func action(for key: Key) -> KeyAction? {
        KeyAction.allCases.first { keys[$0]?.contains(key) == true }
    }

    /// The first key of `action`, for hints.
    package func primaryKey(_ action: KeyAction) -> Key? { keys[action]?.first }
}

package enum KeyBindingError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownKey(String)
    case keyBoundTwice(String, KeyAction, KeyAction)

    package var description: String {
        switch self {
        case .unknownKey(let name): "\"\(name)\" is not a key name"
        case .keyBoundTwice(let key, let first, let second): "key \(key) is bound to both \(first.rawValue) and \(second.rawValue)"
        }
    }
}
