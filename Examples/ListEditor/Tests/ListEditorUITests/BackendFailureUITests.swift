import Foundation
import MockServer
import RobotKit
import XCTest

/// A failing backend: the app says so, keeps the list as the backend has it, and recovers.
final class BackendFailureUITests: ListEditorUITestCase {
    @MainActor
    func testLoadFailureShowsErrorAndRetryLoadsTheList() async throws {
        // Given
        await givenAllRequestsFail()

        // When
        launch()

        // Then
        listEditor { robot in
            robot.verifyError("Could not load your list.", canRetry: true)
            robot.verifyListIsEmpty()
        }

        await givenListRecovers()

        listEditor { robot in
            robot.tapRetry()
            robot.verifyNoError()
            robot.verifyItemCount(3)
            robot.verifyItem(id: 1, title: "Buy milk")
        }
        footer { $0.verifyCounter("2 items left") }
    }

    @MainActor
    func testFailedAddShowsAnErrorAndGivesTheTextBack() async throws {
        // Given
        await givenSavingFails()

        // When
        launch()

        // Then
        listEditor { robot in
            robot.verifyIsLoaded()
            robot.addItem("Water the plants")
            robot.verifyError("Could not add \"Water the plants\".", canRetry: false)
            robot.verifyNewItemField(shows: "Water the plants")
            robot.verifyItemCount(3)
        }

        let posts = await serverMock.requests(method: .POST, path: "/todos")
        XCTAssertEqual(posts.map(\.status), [.internalServerError])
    }

    @MainActor
    func testFailedCheckLeavesTheItemOpen() async throws {
        // Given
        await givenSavingFails()

        // When
        launch()

        // Then
        listEditor { robot in
            robot.verifyIsLoaded()
            robot.toggleItem(id: 1)
            robot.verifyError("Could not save \"Buy milk\".", canRetry: false)
            robot.verifyItemIsCompleted(id: 1, false)
        }
        footer { $0.verifyCounter("2 items left") }
    }

    @MainActor
    func testFailedEditKeepsTheOldTitle() async throws {
        // Given
        await givenSavingFails()

        // When
        launch()

        // Then
        listEditor { robot in
            robot.verifyIsLoaded()
            robot.doubleTapItem(id: 2)
            robot.replaceEditText(id: 2, with: "Walk the cat")
            robot.pressKeyInEditField(id: 2, .enter)
            robot.verifyError("Could not save \"Walk the dog\".", canRetry: false)
            robot.verifyItem(id: 2, title: "Walk the dog")
        }
    }
}
