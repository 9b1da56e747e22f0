import Foundation
import MockServer
import RobotKit
import XCTest

/// The footer: filters as hash routes (Back and Forward move between them), the counter and
/// "Clear completed", both found by predicate since they carry no identifier.
final class FilterUITests: ListEditorUITestCase {
    @MainActor
    func testActiveFilterShowsOnlyOpenItems() async throws {
        // Given
        await givenListSucceeds()

        // When
        launch()

        // Then
        listEditor { $0.verifyIsLoaded() }
        footer { $0.tapFilter(.active).verifySelectedFilter(.active) }
        listEditor { robot in
            robot.verifyItemCount(2)
            robot.verifyItemIsAbsent(id: 3)
            robot.verifyItem(id: 1, title: "Buy milk")
        }
        XCTAssertEqual(app.currentURL?.fragment, "/active")
    }

    @MainActor
    func testCompletedFilterShowsOnlyDoneItems() async throws {
        // Given
        await givenListSucceeds()

        // When
        launch()

        // Then
        listEditor { $0.verifyIsLoaded() }
        footer { $0.tapFilter(.completed).verifySelectedFilter(.completed) }
        listEditor { robot in
            robot.verifyItemCount(1)
            robot.verifyItem(id: 3, title: "Pay rent")
            robot.verifyItemIsAbsent(id: 1)
        }
        // The counter counts every open item, whatever the filter shows.
        footer { $0.verifyCounter("2 items left") }
    }

    @MainActor
    func testBackAndForwardMoveBetweenFilters() async throws {
        // Given
        await givenListSucceeds()

        // When
        launch()

        // Then
        listEditor { $0.verifyIsLoaded().verifyItemCount(3) }
        footer { $0.tapFilter(.active).verifySelectedFilter(.active) }
        listEditor { $0.verifyItemCount(2) }
        footer { $0.tapFilter(.completed).verifySelectedFilter(.completed) }
        listEditor { $0.verifyItemCount(1) }

        footer { $0.goBack().verifySelectedFilter(.active) }
        listEditor { $0.verifyItemCount(2) }
        footer { $0.goBack().verifySelectedFilter(.all) }
        listEditor { $0.verifyItemCount(3) }
        footer { $0.goForward().verifySelectedFilter(.active) }
        listEditor { $0.verifyItemCount(2) }

        let loads = await serverMock.requests(method: .GET, path: "/todos")
        XCTAssertEqual(loads.count, 1, "moving between filters reloads nothing")
    }

    @MainActor
    func testLaunchOnAFilterRouteOpensThatFilter() async throws {
        // Given
        await givenListSucceeds()

        // When
        launch(route: "/completed")

        // Then
        listEditor { $0.verifyIsLoaded().verifyItemCount(1).verifyItem(id: 3, title: "Pay rent") }
        footer { $0.verifySelectedFilter(.completed) }
    }

    @MainActor
    func testCheckingAnItemUnderActiveHidesIt() async throws {
        // Given
        await givenListSucceeds()

        // When
        launch(route: "/active")

        // Then
        listEditor { robot in
            robot.verifyIsLoaded()
            robot.verifyItemCount(2)
            robot.toggleItem(id: 2)
            robot.verifyItemIsAbsent(id: 2)
            robot.verifyItemCount(1)
        }
        footer { $0.verifyCounter("1 item left").tapFilter(.completed) }
        listEditor { $0.verifyItemCount(2).verifyItemIsCompleted(id: 2, true) }
    }

    @MainActor
    func testCounterFollowsEveryChange() async throws {
        // Given
        await givenEmptyListSucceeds()

        // When
        launch()

        // Then
        listEditor { $0.verifyIsLoaded().addItem("First") }
        footer { $0.verifyCounter("1 item left") }
        listEditor { $0.addItem("Second") }
        footer { $0.verifyCounter("2 items left") }
        listEditor { $0.toggleItem(id: 1) }
        footer { $0.verifyCounter("1 item left") }
        listEditor { $0.deleteItem(id: 2) }
        footer { $0.verifyCounter("0 items left") }
    }

    @MainActor
    func testClearCompletedRemovesOnlyDoneItems() async throws {
        // Given
        let backend = await givenListSucceeds(with: [
            TodoItem(id: 1, title: "Buy milk", completed: true),
            TodoItem(id: 2, title: "Walk the dog", completed: false),
            TodoItem(id: 3, title: "Pay rent", completed: true),
        ])

        // When
        launch()

        // Then
        listEditor { $0.verifyIsLoaded() }
        footer { $0.verifyCounter("1 item left").tapClearCompleted() }
        listEditor { robot in
            robot.verifyItemIsAbsent(id: 1)
            robot.verifyItemIsAbsent(id: 3)
            robot.verifyItemCount(1)
            robot.verifyItem(id: 2, title: "Walk the dog")
        }
        footer { $0.verifyClearCompletedIsHidden().verifyCounter("1 item left") }

        let deleted = await serverMock.requests.filter { $0.method == .DELETE }.map(\.path)
        XCTAssertEqual(deleted, ["/todos/1", "/todos/3"])
        XCTAssertEqual(backend.current.map(\.id), [2])
    }

    @MainActor
    func testClearCompletedShowsOnlyWithDoneItems() async throws {
        // Given
        await givenListSucceeds(with: [TodoItem(id: 1, title: "Buy milk", completed: false)])

        // When
        launch()

        // Then
        listEditor { $0.verifyIsLoaded() }
        footer { $0.verifyCounter("1 item left").verifyClearCompletedIsHidden() }
        listEditor { $0.toggleItem(id: 1) }
        footer { $0.verifyClearCompletedIsVisible() }
    }
}
