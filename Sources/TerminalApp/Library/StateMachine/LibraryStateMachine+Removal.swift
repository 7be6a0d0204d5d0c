import TerminalUI

extension LibraryStateMachine {
    /// `X` on a station, a podcast (in the podcast list) or a session: asks first, naming it.
    mutating func askToRemoveSelected() {
        guard model.directoryQuery == nil, model.episodesOf == nil, let entry = model.selectedEntry, let name = entry.removableName else { return }
        model.confirmation = (TerminalStrings.confirmRemove(name, in: language), entry)
        model.changed()
    }

    /// y removes what the question named: it leaves the lists at once, and the library when the
    /// screen closes or at the next removal, so `U` can still bring it back whole. Any other key
    /// keeps it.
    mutating func answerConfirmation(yes: Bool) -> [LibraryEffect] {
        guard let asked = model.confirmation else { return [] }
        model.confirmation = nil
        var effects: [LibraryEffect] = []
        if yes, let name = asked.entry.removableName {
            // The earlier removal leaves the library before the lists are read again without it.
            if let earlier = model.pendingRemoval { effects.append(.remove(earlier.entry)) }
            model.pendingRemoval = (asked.entry, name)
            effects += [.logRemoval(asked.entry), .reload]
        }
        model.changed()
        return effects
    }

    /// `U`: the last removal comes back.
    mutating func undoRemoval() -> [LibraryEffect] {
        guard model.pendingRemoval != nil else { return [] }
        model.pendingRemoval = nil
        return [.reload]
    }

    /// The screen closes: a removal still waiting for its undo is carried out.
    mutating func commitPendingRemoval() -> [LibraryEffect] {
        defer { model.pendingRemoval = nil }
        return model.pendingRemoval.map { [.remove($0.entry)] } ?? []
    }
}
