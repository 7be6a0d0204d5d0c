import PlayerCore
import PropertyBased
import Testing

/// The queue rule against random queues and random sequences of edits and moves. PropertyBased
/// prints the seed of a failing run (`.fixedSeed(...)`) and shrinks the sequence, so a failure
/// reproduces exactly.
@Suite("Queue cursor properties")
struct QueueCursorPropertyTests {
    typealias Cursor = QueueCursor<Int>

    static let runs = 2_000

    /// A queue of `size` entries with ids 1...size; bit i of `alone` makes entry i + 1 play alone.
    static func cursor(size: Int, alone: Int, options: Int, current: Int? = nil) -> Cursor {
        let entries = (0..<size).map { Cursor.Entry(id: $0 + 1, playsAlone: alone & (1 << $0) != 0) }
        return Cursor(entries: entries, options: Self.options(options), current: current)
    }

    /// One of the twelve combinations of `repeat`, `single` and `consume`.
    static func options(_ n: Int) -> QueueOptions {
        let singles: [QueueOptions.Single] = [.off, .on, .oneshot]
        return QueueOptions(repeat: n % 2 == 1, single: singles[(n / 2) % 3], consume: (n / 6) % 2 == 1)
    }

    /// Applies the change a generated number names: the low bits choose the kind, the rest which
    /// entry and where. New entries get ids from `nextID`.
    static func apply(_ n: Int, to cursor: inout Cursor, nextID: inout Int) {
        let p = n / 9
        let count = cursor.entries.count
        let some = count == 0 ? nil : cursor.entries[p % count].id
        switch n % 9 {
        case 0:
            cursor.insert(Cursor.Entry(id: nextID, playsAlone: p % 4 == 0), at: p % (count + 1))
            nextID += 1
        case 1: if let some { cursor.move(some, to: (p / 7) % count) }
        case 2: if let some { cursor.remove(some) }
        case 3, 4: cursor.end()
        case 5: cursor.fail()
        case 6: if let some { cursor.play(some) }
        case 7: cursor.back()
        default: cursor.options = options(p)
        }
    }

    @Test func everyChangeKeepsTheCursorOnAnEntryOrAtTheEnd() async {
        await propertyCheck(
            count: Self.runs, input: Gen.int(in: 0...8), Gen.int(in: 0...255), Gen.int(in: 0...1_000_000).array(of: 1...40)
        ) { size, alone, changes in
            var cursor = Self.cursor(size: size, alone: alone, options: 0, current: size > 0 ? 1 : nil)
            var nextID = size + 1
            for n in changes {
                Self.apply(n, to: &cursor, nextID: &nextID)
                let ids = cursor.entries.map(\.id)
                #expect(Set(ids).count == ids.count, "an id names two entries after \(n)")
                if let current = cursor.current { #expect(ids.contains(current), "current \(current) is not in \(ids)") }
            }
        }
    }

    @Test func repeatNeverEndsWhileTheQueueHoldsAnEntry() async {
        await propertyCheck(
            count: Self.runs, input: Gen.int(in: 1...8), Gen.int(in: 0...255), Gen.int(in: 0...3),
            Gen.int(in: 0...1_000_000).array(of: 1...40)
        ) { size, alone, choice, changes in
            // `repeat` with `single` off or on, `consume` or not (a one-shot `single` stops once).
            let options = QueueOptions(repeat: true, single: choice % 2 == 0 ? .off : .on, consume: choice >= 2)
            var cursor = Cursor(entries: Self.cursor(size: size, alone: alone, options: 0).entries, options: options, current: 1)
            var nextID = size + 1
            for n in changes {
                let p = n / 4
                let count = cursor.entries.count
                switch n % 4 {
                case 0:
                    cursor.insert(Cursor.Entry(id: nextID, playsAlone: p % 4 == 0), at: p % (count + 1))
                    nextID += 1
                case 1: if count > 0 { cursor.move(cursor.entries[p % count].id, to: (p / 7) % count) }
                case 2:
                    // Any entry but the one playing: deleting that one is the listener's stop.
                    if let other = cursor.entries.first(where: { $0.id != cursor.current }) { cursor.remove(other.id) }
                default:
                    if cursor.current == nil, let first = cursor.entries.first { cursor.play(first.id) }
                    let step = cursor.end()
                    // With `consume` the queue empties itself; only then does `repeat` end.
                    #expect(step.current != nil || cursor.entries.isEmpty, "repeat ended with \(cursor.entries.count) entries")
                    if !options.consume { #expect(step.current != nil) }
                }
            }
        }
    }

    @Test func singleStopsAfterTheCurrentEntry() async {
        await propertyCheck(count: Self.runs, input: Gen.int(in: 1...8), Gen.int(in: 0...255), Gen.int(in: 0...11), Gen.int(in: 0...7)) {
            size, alone, options, start in
            var cursor = Self.cursor(size: size, alone: alone, options: options, current: start % size + 1)
            let current = start % size + 1
            let single = cursor.options.single
            let step = cursor.end()
            switch single {
            case .off:
                break
            case .on:
                // With `repeat`, the same entry again; without it, the end.
                #expect(step.current == (cursor.options.repeat ? current : nil))
                #expect(cursor.options.single == .on)
            case .oneshot:
                // It stops once, then the queue plays on as it would without `single`.
                #expect(step.current == nil)
                #expect(cursor.options.single == .off)
                if cursor.contains(current) {
                    cursor.play(current)
                    let expected = cursor.next(after: current)
                    let again = cursor.end()
                    #expect(again.current == expected)
                }
            }
        }
    }

    @Test func consumeRemovesExactlyWhatFinished() async {
        await propertyCheck(
            count: Self.runs, input: Gen.int(in: 1...8), Gen.int(in: 0...255), Gen.int(in: 0...11),
            Gen.int(in: 0...1_000_000).array(of: 1...30)
        ) { size, alone, options, moves in
            var cursor = Self.cursor(size: size, alone: alone, options: options, current: 1)
            for n in moves {
                let before = cursor.entries
                let left = cursor.current
                let step: Cursor.Step
                switch n % 5 {
                case 0, 1: step = cursor.end()
                case 2: step = cursor.fail()
                case 3: step = cursor.back()
                default: step = before.isEmpty ? cursor.end() : cursor.play(before[(n / 5) % before.count].id)
                }
                #expect(step.current == cursor.current)
                if cursor.options.consume, let left, left != step.current {
                    // What finished or was moved past leaves, and nothing else does.
                    #expect(step.consumed == left)
                    #expect(cursor.entries == before.filter { $0.id != left })
                } else {
                    #expect(step.consumed == nil)
                    #expect(cursor.entries == before)
                }
                if cursor.current == nil, let first = cursor.entries.first { cursor.play(first.id) }
            }
        }
    }

    @Test func anEntryThatPlaysAloneIsNeverRequestedWithAnother() async {
        await propertyCheck(count: Self.runs, input: Gen.int(in: 1...8), Gen.int(in: 0...255), Gen.int(in: 0...11)) { size, alone, options in
            let cursor = Self.cursor(size: size, alone: alone, options: options)
            let playsAlone = Dictionary(uniqueKeysWithValues: cursor.entries.map { ($0.id, $0.playsAlone) })
            for entry in cursor.entries {
                let request = cursor.request(from: entry.id)
                let ids = request.ids
                #expect(ids.first == entry.id)
                if ids.count > 1 { #expect(!ids.contains { playsAlone[$0] == true }, "\(ids) holds an entry that plays alone") }
                // The request is what plays after its first entry, up to where the queue goes on.
                let upcoming = cursor.upcoming(after: entry.id)
                #expect(Array(ids.dropFirst()) == Array(upcoming.prefix(ids.count - 1)))
                #expect(request.continuesFrom == upcoming.dropFirst(ids.count - 1).first)
                if let next = request.continuesFrom { #expect(entry.playsAlone || playsAlone[next] == true) }
                #expect(cursor.requestedAhead(of: entry.id) == Array(ids.dropFirst()))
            }
        }
    }
}

@Suite("Queue cursor")
struct QueueCursorTests {
    typealias Cursor = QueueCursor<Int>

    static func cursor(_ count: Int, alone: Set<Int> = [], options: QueueOptions = QueueOptions(), current: Int? = nil) -> Cursor {
        Cursor(entries: (1...count).map { Cursor.Entry(id: $0, playsAlone: alone.contains($0)) }, options: options, current: current)
    }

    @Test func whatPlaysNextFollowsRepeatSingleAndConsume() {
        var cursor = Self.cursor(3)
        #expect(cursor.upcoming(after: 2) == [3])
        #expect(cursor.next(after: 3) == nil)
        cursor.options.repeat = true
        // Across the wrap, once, so the player crossfades from the last entry to the first.
        #expect(cursor.upcoming(after: 2) == [3, 1, 2])
        cursor.options.consume = true
        #expect(cursor.upcoming(after: 2) == [3, 1])
        cursor.options.consume = false
        cursor.options.single = .on
        #expect(cursor.upcoming(after: 2) == [2])
        cursor.options.repeat = false
        #expect(cursor.upcoming(after: 2).isEmpty)
        #expect(cursor.upcoming(after: 9).isEmpty)
    }

    @Test func aRequestStopsBeforeAnEntryThatPlaysAloneWhichIsARequestOfItsOwn() {
        let cursor = Self.cursor(5, alone: [3])
        #expect(cursor.request(from: 1).ids == [1, 2])
        #expect(cursor.request(from: 1).continuesFrom == 3)
        #expect(cursor.request(from: 3).ids == [3])
        #expect(cursor.request(from: 3).continuesFrom == 4)
        #expect(cursor.requestedAhead(of: 3).isEmpty)
        #expect(cursor.request(from: 4).ids == [4, 5])
        #expect(cursor.request(from: 4).continuesFrom == nil)
    }

    @Test func aRequestTakesNoEntryOnceOneIsRefused() {
        var request = Cursor.Request()
        let offers = [
            request.offer(Cursor.Entry(id: 1)), request.offer(Cursor.Entry(id: 2, playsAlone: true)), request.offer(Cursor.Entry(id: 3)),
        ]
        #expect(offers == [true, false, false])
        #expect(request.ids == [1])
        #expect(request.continuesFrom == 2)
    }

    @Test func afterAFailureTheQueueGoesOnWrappingOnlyWithRepeat() {
        var cursor = Self.cursor(3, options: QueueOptions(single: .on))
        // `single` does not hold the queue on an entry that did not play.
        #expect(cursor.afterFailure(of: 1) == 2)
        #expect(cursor.afterFailure(of: 3) == nil)
        cursor.options.repeat = true
        #expect(cursor.afterFailure(of: 3) == 1)
        // A failing entry alone in the queue is not tried again and again.
        #expect(Self.cursor(1, options: QueueOptions(repeat: true)).afterFailure(of: 1) == nil)
    }

    @Test func previousWrapsOnlyWithRepeat() {
        var cursor = Self.cursor(2)
        #expect(cursor.previous(before: 2) == 1)
        #expect(cursor.previous(before: 1) == nil)
        cursor.options.repeat = true
        #expect(cursor.previous(before: 1) == 2)
    }

    @Test func theFirstToPlayIsTheCurrentEntryElseTheFirst() {
        #expect(Self.cursor(3).firstToPlay == 1)
        #expect(Self.cursor(3, current: 2).firstToPlay == 2)
        #expect(Self.cursor(3, current: 7).current == nil)
    }

    @Test func consumeRemovesTheEntryLeftAndOneShotSingleIsSpentAtTheStop() {
        var cursor = Self.cursor(3, options: QueueOptions(single: .oneshot, consume: true), current: 1)
        #expect(cursor.consumed(leaving: 1, for: 1) == nil)
        #expect(cursor.consumed(leaving: 1, for: 2) == 1)
        let stop = cursor.end()
        #expect(stop == Cursor.Step(current: nil, consumed: 1))
        #expect(cursor.entries.map(\.id) == [2, 3])
        #expect(cursor.options.single == .off)
        cursor.play(2)
        let next = cursor.end()
        #expect(next == Cursor.Step(current: 3, consumed: 2))
    }

    @Test func removingTheCurrentEntryMovesOnToWhatFollowed() {
        var cursor = Self.cursor(3, current: 2)
        let first = cursor.remove(2)
        #expect(first == Cursor.Step(current: 3))
        let second = cursor.remove(3)
        #expect(second == Cursor.Step(current: nil))
        #expect(cursor.entries.map(\.id) == [1])
    }
}
