import Foundation
import PlayerCore
import Presentation
import Testing

@Suite struct EmptyStateTests {
    static let presets: [EmptyStateViewState.Preset] = [
        .stations, .podcasts, .episodes, .sessions, .noSearchResults(query: "jazz"),
    ]

    @Test(arguments: presets, Language.allCases)
    func presetsAreComplete(_ preset: EmptyStateViewState.Preset, _ language: Language) {
        let view = EmptyStateViewState(preset, in: language)
        #expect(!view.title.isEmpty)
        #expect(!view.message.isEmpty)
        #expect(!view.icon.symbolName.isEmpty)
        #expect(!view.icon.glyph.isEmpty)
        if case .noSearchResults = preset {
            #expect(view.actionTitle == nil)
        } else {
            #expect(view.actionTitle?.isEmpty == false)
        }
    }

    @Test func stationsInBothLanguages() {
        let en = EmptyStateViewState(.stations, in: .english)
        #expect(en.title == "No stations yet")
        #expect(en.actionTitle == "Add Station")
        let ru = EmptyStateViewState(.stations, in: .russian)
        #expect(ru.title == "Станций пока нет")
    }

    @Test func searchQueryIsQuotedAndSanitised() {
        let view = EmptyStateViewState(.noSearchResults(query: "ja\u{1B}[2Jzz"), in: .english)
        #expect(view.message.contains("“ja[2Jzz”"))
        #expect(!view.message.contains("\u{1B}"))
    }

    @Test func customEmptyStateWithoutAction() {
        let view = EmptyStateViewState(icon: .emptyTray, title: "T", message: "M")
        #expect(view.actionTitle == nil)
    }
}

@Suite struct ErrorStateTests {
    @Test func errorStateWithRetry() {
        let error = PlaybackError(.offline)
        let en = ErrorStateViewState(error: error, language: .english)
        #expect(en.title == "Something Went Wrong")
        #expect(en.retryTitle == "Try Again")
        #expect(en.message == error.message(in: .english))
        #expect(en.recoverySuggestion == error.recoverySuggestion(in: .english))
        #expect(en.icon == .warning)
        #expect(en.spokenText.hasPrefix("Something Went Wrong. "))
        #expect(en.spokenText.hasSuffix("Try Again."))
        let ru = ErrorStateViewState(error: error, language: .russian)
        #expect(ru.title == "Что-то пошло не так")
        #expect(ru.retryTitle == "Попробовать снова")
        #expect(ru.message == error.message(in: .russian))
    }
}

@Suite struct InlineErrorTests {
    @Test func dismissableInlineErrorGoesAway() {
        let inline = InlineErrorViewState(message: "Artwork failed to load", language: .english)
        #expect(inline.isDismissable)
        #expect(inline.dismissTitle == "Dismiss")
        #expect(inline.dismissed() == nil)
    }

    @Test func nonDismissableStays() {
        let inline = InlineErrorViewState(error: PlaybackError(.offline), isDismissable: false, language: .russian)
        #expect(!inline.isDismissable)
        #expect(inline.dismissTitle == nil)
        #expect(inline.dismissed() == inline)
        #expect(inline.message == PlaybackError(.offline).message(in: .russian))
    }

    @Test func messageIsOneSafeLine() {
        let inline = InlineErrorViewState(message: "line one\nline\u{9D} two", language: .english)
        #expect(inline.message == "line one line two")
    }
}

@Suite struct ConnectivityBannerTests {
    @Test(arguments: Connectivity.allCases)
    func visibleOnlyOffline(_ connectivity: Connectivity) {
        let banner = ConnectivityBannerState(connectivity: connectivity, language: .english)
        #expect(banner.isVisible == (connectivity == .offline))
        #expect(banner.text == "No Internet Connection")
    }

    @Test func russianText() {
        #expect(ConnectivityBannerState(connectivity: .offline, language: .russian).text == "Нет подключения к интернету")
    }
}
