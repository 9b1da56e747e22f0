import Foundation
import MockServer
import RobotKit
import XCTest

/// Adding, editing, checking and deleting items, and what the app sends for each.
final class ListEditingUITests: ListEditorUITestCase {
    @MainActor
    func testLaunchShowsTheItemsTheBackendHas() async throws {
        // Given
        await givenListSucceeds()

        // When
        launch()

        // Then
        listEditor { robot in
            robot.verifyIsLoaded()
            robot.verifyItemCount(3)
            robot.verifyItem(id: 1, title: "Buy milk")
            robot.verifyItem(id: 2, title: "Walk the dog")
            robot.verifyItem(id: 3, title: "Pay rent")
            robot.verifyItemIsCompleted(id: 1, false)
            robot.verifyItemIsCompleted(id: 3, true)
        }
        footer { $0.verifyCounter("2 items left").verifySelectedFilter(.all) }
    }

    @MainActor
    func testEmptyListShowsNoListAndNoFooter() async throws {
        // Given
        await givenEmptyListSucceeds()

        // When
        launch()

        // Then
        listEditor { $0.verifyIsLoaded().verifyListIsEmpty().verifyNewItemField(shows: "") }
        footer { $0.verifyIsHidden() }
    }

    @MainActor
    func testTypingAndEnterAddsAnItem() async throws {
        // Given
        let backend = await givenEmptyListSucceeds()

        // When
        launch()

        // Then
        listEditor { robot in
            robot.verifyIsLoaded()
            robot.addItem("Buy milk")
            robot.verifyItem(id: 1, title: "Buy milk")
            robot.verifyItemIsCompleted(id: 1, false)
            robot.verifyNewItemField(shows: "")
        }
        footer { $0.verifyCounter("1 item left") }

        let sent = await sentBodies(.POST, "/todos", as: Draft.self)
        XCTAssertEqual(sent, [Draft(title: "Buy milk", completed: false)])
        XCTAssertEqual(backend.current, [TodoItem(id: 1, title: "Buy milk", completed: false)])
    }

    @MainActor
    func testItemsAddedInARowKeepTheirOrder() async throws {
        // Given
        await givenEmptyListSucceeds()

        // When
        launch()

        // Then
        listEditor { robot in
            robot.verifyIsLoaded()
            robot.addItem("One")
            robot.addItem("Two")
            robot.addItem("Three")
            robot.verifyItemCount(3)
            robot.verifyItem(id: 1, title: "One")
            robot.verifyItem(id: 2, title: "Two")
            robot.verifyItem(id: 3, title: "Three")
        }
        footer { $0.verifyCounter("3 items left") }

        let titles = await sentBodies(.POST, "/todos", as: Draft.self).map(\.title)
        XCTAssertEqual(titles, ["One", "Two", "Three"])
    }

    @MainActor
    func testBlankTextAddsNothingAndTitlesAreTrimmed() async throws {
        // Given
        await givenEmptyListSucceeds()

        // When
        launch()

        // Then
        listEditor { robot in
            robot.verifyIsLoaded()
            robot.typeNewItem("   ").pressEnterInNewItem()
            // The next item proves the blank Enter was handled and sent nothing.
            robot.addItem("  Call mom  ")
            robot.verifyItemCount(1)
            robot.verifyItem(id: 1, title: "Call mom")
        }

        let titles = await sentBodies(.POST, "/todos", as: Draft.self).map(\.title)
        XCTAssertEqual(titles, ["Call mom"])
    }

    @MainActor
    func testDoubleTapThenEnterSavesTheNewTitle() async throws {
        // Given
        let backend = await givenListSucceeds()

        // When
        launch()

        // Then
        listEditor { robot in
            robot.verifyIsLoaded()
            robot.doubleTapItem(id: 2)
            robot.verifyEditField(id: 2, shows: "Walk the dog")
            robot.replaceEditText(id: 2, with: "Walk the cat")
            robot.pressKeyInEditField(id: 2, .enter)
            robot.verifyIsNotEditing(id: 2)
            robot.verifyItem(id: 2, title: "Walk the cat")
        }

        let sent = await sentBodies(.PATCH, "/todos/2", as: Draft.Changes.self)
        XCTAssertEqual(sent, [Draft.Changes(title: "Walk the cat", completed: nil)])
        XCTAssertEqual(backend.current.map(\.title), ["Buy milk", "Walk the cat", "Pay rent"])
    }

    @MainActor
    func testEscapeCancelsTheEdit() async throws {
        // Given
        await givenListSucceeds()

        // When
        launch()

        // Then
        listEditor { robot in
            robot.verifyIsLoaded()
            robot.doubleTapItem(id: 1)
            robot.appendEditText(id: 1, " and eggs")
            robot.pressKeyInEditField(id: 1, .escape)
            robot.verifyIsNotEditing(id: 1)
            robot.verifyItem(id: 1, title: "Buy milk")
        }

        let patches = await serverMock.requests(method: .PATCH, path: "/todos/1")
        XCTAssertEqual(patches.count, 0, "Escape must not save")
    }

    @MainActor
    func testEditingToAnEmptyTitleDeletesTheItem() async throws {
        // Given
        let backend = await givenListSucceeds()

        // When
        launch()

        // Then
        listEditor { robot in
            robot.verifyIsLoaded()
            robot.doubleTapItem(id: 2)
            robot.replaceEditText(id: 2, with: "")
            robot.pressKeyInEditField(id: 2, .enter)
            robot.verifyItemIsAbsent(id: 2)
            robot.verifyItemCount(2)
        }
        footer { $0.verifyCounter("1 item left") }

        let deletes = await serverMock.requests(method: .DELETE, path: "/todos/2")
        XCTAssertEqual(deletes.count, 1)
        XCTAssertEqual(backend.current.map(\.id), [1, 3])
    }

    @MainActor
    func testCheckingAnItemCompletesIt() async throws {
        // Given
        let backend = await givenListSucceeds()

        // When
        launch()

        // Then
        listEditor { robot in
            robot.verifyIsLoaded()
            robot.toggleItem(id: 1)
            robot.verifyItemIsCompleted(id: 1, true)
        }
        footer { $0.verifyCounter("1 item left") }

        let sent = await sentBodies(.PATCH, "/todos/1", as: Draft.Changes.self)
        XCTAssertEqual(sent, [Draft.Changes(title: nil, completed: true)])
        XCTAssertEqual(backend.current.first?.completed, true)
    }

    @MainActor
    func testUncheckingADoneItemReopensIt() async throws {
        // Given
        await givenListSucceeds()

        // When
        launch()

        // Then
        listEditor { robot in
            robot.verifyIsLoaded()
            robot.toggleItem(id: 3)
            robot.verifyItemIsCompleted(id: 3, false)
        }
        footer { $0.verifyCounter("3 items left").verifyClearCompletedIsHidden() }

        let sent = await sentBodies(.PATCH, "/todos/3", as: Draft.Changes.self)
        XCTAssertEqual(sent, [Draft.Changes(title: nil, completed: false)])
    }

    @MainActor
    func testToggleAllCompletesOnlyTheOpenItems() async throws {
        // Given
        await givenListSucceeds()

        // When
        launch()

        // Then
        listEditor { robot in
            robot.verifyIsLoaded()
            robot.verifyToggleAllIsChecked(false)
            robot.tapToggleAll()
            robot.verifyItemIsCompleted(id: 1, true)
            robot.verifyItemIsCompleted(id: 2, true)
            robot.verifyItemIsCompleted(id: 3, true)
            robot.verifyToggleAllIsChecked(true)
        }
        footer { $0.verifyCounter("0 items left") }

        let patched = await serverMock.requests.filter { $0.method == .PATCH }.map(\.path)
        XCTAssertEqual(patched, ["/todos/1", "/todos/2"], "the done item needs no change")
    }

    @MainActor
    func testToggleAllTwiceReopensEveryItem() async throws {
        // Given
        let backend = await givenListSucceeds()

        // When
        launch()

        // Then
        listEditor { robot in
            robot.verifyIsLoaded()
            robot.tapToggleAll()
            robot.verifyToggleAllIsChecked(true)
            robot.tapToggleAll()
            robot.verifyToggleAllIsChecked(false)
            robot.verifyItemIsCompleted(id: 3, false)
        }
        footer { $0.verifyCounter("3 items left") }

        XCTAssertEqual(backend.current.filter(\.completed).count, 0)
    }

    @MainActor
    func testDeleteButtonRemovesTheItem() async throws {
        // Given
        let backend = await givenListSucceeds()

        // When
        launch()

        // Then
        listEditor { robot in
            robot.verifyIsLoaded()
            robot.deleteItem(id: 2)
            robot.verifyItemIsAbsent(id: 2)
            robot.verifyItemCount(2)
        }
        footer { $0.verifyCounter("1 item left") }

        let deletes = await serverMock.requests(method: .DELETE, path: "/todos/2")
        XCTAssertEqual(deletes.count, 1)
        XCTAssertEqual(backend.current.map(\.id), [1, 3])
    }

    @MainActor
    func testAddedItemsSurviveAReload() async throws {
        // Given
        await givenListSucceeds()

        // When
        launch()

        // Then
        listEditor { robot in
            robot.verifyIsLoaded()
            robot.addItem("Water the plants")
            robot.toggleItem(id: 1)
            robot.verifyItem(id: 4, title: "Water the plants")
            robot.verifyItemIsCompleted(id: 1, true)
            robot.reload()
            robot.verifyIsLoaded()
            robot.verifyItemCount(4)
            robot.verifyItem(id: 4, title: "Water the plants")
            robot.verifyItemIsCompleted(id: 1, true)
        }
        footer { $0.verifyCounter("2 items left") }

        let loads = await serverMock.requests(method: .GET, path: "/todos")
        XCTAssertEqual(loads.count, 2, "one load per page load")
    }
}
