import Foundation
import PlayerCore

/// The chapters part of Now Playing: the chapter playing as one line ("Chapter 3/12: Title"), and
/// the rows of the list `c` opens, with the playing one marked. Nil for an item without chapters.
package struct ChapterViewState: Sendable, Hashable, Codable {
    package struct Row: Sendable, Hashable, Codable {
        /// "3", from 1.
        package let number: String
        /// "12:34", where it starts.
        package let start: String
        package let title: String
        package let isCurrent: Bool
    }

    /// "Chapter 3/12: Title"; nil before the first chapter starts.
    package let currentText: String?
    /// "Chapters", the list's heading.
    package let heading: String
    package let rows: [Row]
    /// The row of the chapter playing, for scrolling the list to it.
    package let currentIndex: Int?

    package init?(chapters: ChapterList?, current: ChapterPosition?, language: Language) {
        guard let chapters, !chapters.isEmpty else { return nil }
        // A position published for an earlier list (the item just changed) is not this one's.
        let current = current.flatMap { $0.count == chapters.count && $0.index < chapters.count ? $0 : nil }
        currentIndex = current?.index
        currentText = current.map { position in
            if let title = position.title {
                Texts.format(UIString.chapter, in: language, position.index + 1, position.count, title)
            } else {
                Texts.format(UIString.chapterUntitled, in: language, position.index + 1, position.count)
            }
        }
        heading = Texts.string(UIString.chapters, in: language)
        rows = chapters.chapters.enumerated().map { index, chapter in
            Row(
                number: String(index + 1), start: TimeText.clock(chapter.start),
                title: chapter.title ?? Texts.format(UIString.chapterUntitled, in: language, index + 1, chapters.count),
                isCurrent: index == current?.index)
        }
    }
}
