import Foundation
import MockServer
import RobotKit
import XCTest

// Mock backends for the tests. Initial scenarios (before `launch()`) answer the API with
// `registerCatchAll`; the app's own files come from the served folder, which wins over a
// catch-all. Recovery scenarios (mid-test) override single routes with `register`, which
// wins over the catch-all. `@MainActor` like the tests that call them, so `self` stays on
// one actor.

extension ListEditorUITestCase {
    /// Three items, the last one done: the list most tests start from.
    static let groceries = [
        TodoItem(id: 1, title: "Buy milk", completed: false),
        TodoItem(id: 2, title: "Walk the dog", completed: false),
        TodoItem(id: 3, title: "Pay rent", completed: true),
    ]
}

// MARK: - Initial scenarios

extension ListEditorUITestCase {
    /// A working backend that starts with `items`; returned so a test can read what it holds.
    @MainActor
    @discardableResult
    func givenListSucceeds(with items: [TodoItem] = ListEditorUITestCase.groceries) async -> TodoBackend {
        let backend = TodoBackend(items: items)
        await serverMock.registerCatchAll { request in
            backend.respond(to: request) ?? .status(.notFound)
        }
        return backend
    }

    /// A working backend with nothing in it yet.
    @MainActor
    @discardableResult
    func givenEmptyListSucceeds() async -> TodoBackend {
        await givenListSucceeds(with: [])
    }

    /// The list loads; every change (POST, PATCH, DELETE) fails with 500.
    @MainActor
    func givenSavingFails(with items: [TodoItem] = ListEditorUITestCase.groceries) async {
        let backend = TodoBackend(items: items)
        await serverMock.registerCatchAll { request in
            if request.method == .GET { return backend.respond(to: request) ?? .status(.notFound) }
            return .status(.internalServerError)
        }
    }

    /// Every API request fails with 500 (the app's files are still served).
    @MainActor
    func givenAllRequestsFail() async {
        await serverMock.registerCatchAll { _ in .status(.internalServerError) }
    }
}

// MARK: - Recovery scenarios

extension ListEditorUITestCase {
    /// Loading the list starts working (after a failure).
    @MainActor
    func givenListRecovers(with items: [TodoItem] = ListEditorUITestCase.groceries) async {
        let backend = TodoBackend(items: items)
        await serverMock.register(.GET, "/todos") { request in
            backend.respond(to: request) ?? .status(.notFound)
        }
    }
}

// MARK: - The request journal

extension ListEditorUITestCase {
    /// The bodies the app sent with `method` to `path`, oldest first.
    @MainActor
    func sentBodies<Body: Decodable>(
        _ method: HTTPMethod, _ path: String, as type: Body.Type, file: StaticString = #filePath, line: UInt = #line
    ) async -> [Body] {
        await serverMock.requests(method: method, path: path).compactMap { recorded in
            do {
                return try recorded.request.jsonBody(type)
            } catch {
                XCTFail("\(method.rawValue) \(path) sent a body that is not \(type): \(error)", file: file, line: line)
                return nil
            }
        }
    }
}
