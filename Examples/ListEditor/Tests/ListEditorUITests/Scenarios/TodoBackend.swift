import Foundation
import MockServer

/// One item of the list, as the app and the backend exchange it.
struct TodoItem: Codable, Equatable, Sendable {
    var id: Int
    var title: String
    var completed: Bool
}

/// An in-memory `/todos` backend for one test: GET the list, POST an item, PATCH and DELETE
/// one by id. It keeps what the app wrote, so a reload shows it, as a real backend would.
///
/// `@unchecked Sendable`: MockServer calls handlers on its event loops; every access to the
/// items goes through `lock`.
final class TodoBackend: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [TodoItem]
    private var nextID: Int

    init(items: [TodoItem]) {
        self.items = items
        self.nextID = (items.map(\.id).max() ?? 0) + 1
    }

    /// The items as the backend holds them now.
    var current: [TodoItem] {
        lock.withLock { items }
    }

    /// The answer to one request under `/todos`; `nil` for any other path.
    func respond(to request: MockRequest) -> MockResponse? {
        if request.path == "/todos" {
            switch request.method {
            case .GET: return list()
            case .POST: return create(request)
            default: return .status(.methodNotAllowed)
            }
        }
        guard request.path.hasPrefix("/todos/"), let id = Int(request.path.dropFirst("/todos/".count)) else {
            return nil
        }
        switch request.method {
        case .PATCH: return update(id, request)
        case .DELETE: return delete(id)
        default: return .status(.methodNotAllowed)
        }
    }

    private func list() -> MockResponse {
        .json(encoded(lock.withLock { items }))
    }

    private func create(_ request: MockRequest) -> MockResponse {
        guard let draft = try? request.jsonBody(Draft.self) else { return .status(.badRequest) }
        let item = lock.withLock {
            let item = TodoItem(id: nextID, title: draft.title, completed: draft.completed ?? false)
            nextID += 1
            items.append(item)
            return item
        }
        return .json(encoded(item), status: .created)
    }

    private func update(_ id: Int, _ request: MockRequest) -> MockResponse {
        guard let changes = try? request.jsonBody(Draft.Changes.self) else { return .status(.badRequest) }
        let updated: TodoItem? = lock.withLock {
            guard let index = items.firstIndex(where: { $0.id == id }) else { return nil }
            if let title = changes.title { items[index].title = title }
            if let completed = changes.completed { items[index].completed = completed }
            return items[index]
        }
        return updated.map { .json(encoded($0)) } ?? .status(.notFound)
    }

    private func delete(_ id: Int) -> MockResponse {
        let removed = lock.withLock {
            let before = items.count
            items.removeAll { $0.id == id }
            return items.count < before
        }
        return .status(removed ? .noContent : .notFound)
    }

    private func encoded<Value: Encodable>(_ value: Value) -> Data {
        // Encoding these plain values cannot fail; an empty body would show up as a test failure.
        (try? JSONEncoder().encode(value)) ?? Data()
    }
}

/// What the app sends: a new item (`POST`), or the changed fields of one (`PATCH`).
struct Draft: Decodable, Equatable {
    var title: String
    var completed: Bool?

    struct Changes: Decodable, Equatable {
        var title: String?
        var completed: Bool?
    }
}
