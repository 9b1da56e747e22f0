import Foundation
import MockServer
import RobotKit
import XCTest

/// The suite's base class, as a test author writes it: the page, the robot DSL, the scenarios.
class RobotTestCase: UITestCase {
    override var appURL: URL? { Fixture.url("app.html") }

    func home(actions: (HomeRobot) -> Void) {
        actions(HomeRobot(app: app))
    }

    func characterList(actions: (CharacterListRobot) -> Void) {
        actions(CharacterListRobot(app: app))
    }

    func characterDetail(actions: (CharacterDetailRobot) -> Void) {
        actions(CharacterDetailRobot(app: app))
    }
}

// MARK: - Scenarios

extension RobotTestCase {
    static let charactersJSON = #"""
        {"results": [{"id": 1, "name": "Rick Sanchez", "status": "Alive"},
                     {"id": 2, "name": "Morty Smith", "status": "Alive"}]}
        """#

    // @MainActor like the tests that call them, so `self` stays on one actor.
    @MainActor
    func givenCharacterListAndDetailSucceeds() async {
        await serverMock.registerCatchAll { request in
            if request.path == "/character" { return .json(RobotTestCase.charactersJSON) }
            if request.path.hasPrefix("/character/") {
                return .json(#"{"id": 1, "name": "Rick Sanchez", "status": "Alive"}"#)
            }
            return .status(.notFound)
        }
    }

    @MainActor
    func givenAllRequestsFail() async {
        await serverMock.registerCatchAll { _ in .status(.internalServerError) }
    }

    @MainActor
    func givenCharacterListRecovers() async {
        await serverMock.register(.GET, "/character") { _ in .json(RobotTestCase.charactersJSON) }
    }
}
