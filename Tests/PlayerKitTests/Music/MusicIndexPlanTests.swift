import Library
import LibraryKit
import Testing

/// `MusicIndexPlan`: what an update reads and drops, decided from stamps alone.
@Suite("Music index plan")
struct MusicIndexPlanTests {
    static func stamp(_ modified: Double, _ size: Int64 = 1) -> MusicFileStamp { MusicFileStamp(modified: modified, size: size) }

    @Test func readsNewAndChangedFilesAndDropsGoneOnes() {
        var disk = MusicDirectoryScan()
        disk.files = ["a.mp3": Self.stamp(1), "b.mp3": Self.stamp(2), "c.mp3": Self.stamp(3, 5), "new.mp3": Self.stamp(9)]
        let index = ["a.mp3": Self.stamp(1), "b.mp3": Self.stamp(1), "c.mp3": Self.stamp(3, 4), "gone.mp3": Self.stamp(1)]
        let plan = MusicIndexPlan(disk: disk, index: index)
        #expect(plan.toRead == ["b.mp3", "c.mp3", "new.mp3"])
        #expect(plan.gone == ["gone.mp3"])
        #expect(plan.unchanged == 1)
        #expect(MusicIndexPlan(disk: disk, index: index, rereadAll: true).toRead == ["a.mp3", "b.mp3", "c.mp3", "new.mp3"])
    }

    @Test func whatLiesUnderAnUnreadableFolderIsKeptNotDropped() {
        var disk = MusicDirectoryScan()
        disk.files = ["Open/a.mp3": Self.stamp(1)]
        disk.unreadableFolders = ["Locked"]
        let index = ["Open/a.mp3": Self.stamp(1), "Locked/b.mp3": Self.stamp(1), "Locked/Deep/c.mp3": Self.stamp(1), "LockedNot/d.mp3": Self.stamp(1)]
        #expect(MusicIndexPlan(disk: disk, index: index).gone == ["LockedNot/d.mp3"])
        // The top itself unreadable: nothing is taken for gone.
        disk.unreadableFolders = [""]
        #expect(MusicIndexPlan(disk: disk, index: index).gone.isEmpty)
    }
}
