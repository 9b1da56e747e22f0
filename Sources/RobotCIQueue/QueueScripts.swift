/// A key of a run: `robotci:NAME:<rawValue>`. Layout: docs/design-notes.md, *Queue mode*.
enum QueueKey: String, CaseIterable, Sendable {
    case plan, batches, queue, seq, since, leases, owner, alive, done, results, records, machines
}

/// A queue script with the keys it takes (its KEYS, in order) declared beside its source,
/// so no caller can pass them in another order.
struct QueueScript: Sendable {
    let keys: [QueueKey]
    /// Runs inside the joined run: the `sameRun` check goes first, and the caller appends
    /// the plan key and prepends the nonce (which the check removes).
    let inRun: Bool
    let source: String

    init(keys: [QueueKey], inRun: Bool, _ source: String) {
        self.keys = keys
        self.inRun = inRun
        self.source = inRun ? QueueScripts.sameRun + "\n" + source : source
    }
}

/// The Lua scripts that make each queue step atomic in Redis (EVAL runs a script alone:
/// no other client's command interleaves). Key layout: docs/design-notes.md, *Queue mode*.
/// Times come from Redis's own clock (`TIME`), so machines' clocks may disagree.
enum QueueScripts {
    /// Redis's clock in milliseconds.
    private static let now = """
        local t = redis.call('TIME')
        local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        """

    /// Run check, first in every script after join: the plan key is the last KEY and the
    /// machine's run nonce the first ARGV (both removed, so each script's own KEYS and ARGV
    /// read as before). A plan that vanished (FLUSHALL, a restart without persistence, an
    /// evicted key), was replaced by another run's (another nonce), or that a machine marked
    /// lost, answers {'lost', nonce now or '', 'marked' or ''} and the script changes nothing:
    /// a stale or rolled-back Redis cannot mix two runs.
    fileprivate static let sameRun = """
        local plan = table.remove(KEYS)
        local nonce = table.remove(ARGV, 1)
        local state = redis.call('HMGET', plan, 'nonce', 'lost')
        if state[1] ~= nonce or state[2] then
          return {'lost', state[1] or '', state[2] and 'marked' or ''}
        end
        """

    /// Queues ARGV[first…] as new batches: a number from `seq`, the body in `batches`, the
    /// time in `since`, the number at the queue's tail. Used after `now` (planning, re-opening).
    private static let enqueue = """
        local function enqueue(batches, queue, seq, since, first)
          for i = first, #ARGV do
            local id = redis.call('INCR', seq)
            redis.call('HSET', batches, id, ARGV[i])
            redis.call('HSET', since, id, now)
            redis.call('RPUSH', queue, id)
          end
        end
        """

    /// Plans the run once. KEYS: plan, batches, queue, seq, since, alive.
    /// ARGV: nonce, digest, test count, machine, lease ms, then the sorted test ids (JSON) and
    /// one batch JSON per batch. Without the last two (a probe: the plan is megabytes, and
    /// only the first of a fleet's machines needs to send it) a missing plan answers
    /// {'absent'} and nothing is written. The machine counts as live from its join on.
    /// Returns {'planned', nonce} for the first machine, {'joined', nonce, digest, count} for
    /// the others while the run goes on, and {'finished', nonce, digest, count, finished ms,
    /// 'lost' or ''} once a lease said done (or a machine marked the run lost): a re-run of
    /// a CI job that keeps the queue name must not silently repeat the old run's verdict.
    static let join = QueueScript(keys: [.plan, .batches, .queue, .seq, .since, .alive], inRun: false, """
        \(now)
        local existing = redis.call('HMGET', KEYS[1], 'nonce', 'digest', 'tests', 'finished', 'lost')
        if existing[1] or existing[2] then
          -- (a plan with a digest but no nonce is an older robotci's: the caller refuses it)
          if existing[4] or existing[5] then
            return {'finished', existing[1] or '', existing[2] or '', existing[3] or '', existing[4] or existing[5], existing[5] and 'lost' or ''}
          end
          redis.call('ZADD', KEYS[6], now + tonumber(ARGV[5]), ARGV[4])
          return {'joined', existing[1] or '', existing[2] or '', existing[3] or ''}
        end
        if #ARGV < 6 then return {'absent'} end
        redis.call('ZADD', KEYS[6], now + tonumber(ARGV[5]), ARGV[4])
        redis.call('HSET', KEYS[1], 'nonce', ARGV[1], 'digest', ARGV[2], 'tests', ARGV[3], 'list', ARGV[6], 'batches', #ARGV - 6, 'planned', now)
        \(enqueue)
        enqueue(KEYS[2], KEYS[3], KEYS[4], KEYS[5], 7)
        -- The expected work of the plan's chunks, which a lease's merge divides.
        local pending = 0
        for i = 7, #ARGV do pending = pending + (cjson.decode(ARGV[i]).expected or 0) end
        redis.call('HSET', KEYS[1], 'pendingms', math.floor(pending))
        return {'planned', ARGV[1]}
        """)

    /// One round trip of a shard: stores the buffered results of the batch it finished,
    /// acknowledges that batch, then leases its next one. Either half may be absent.
    /// KEYS: queue, leases, owner, batches, alive, done, since, results, records, seq.
    /// ARGV: machine, lease ms, avoid ms (how long a retry waits for another machine),
    /// shards of this machine, batches per shard, shortest batch ms, most tests, most bytes
    /// (how a lease merges the plan's chunks), whether to lease ('1' or '0'), the longest
    /// batch ms this shard may take now (slow start: twice its last); n results, then
    /// n (field, entry, second field) triples (attempts with no retry: `storeResult`);
    /// the finished batch's id or '', its record, then the batch JSONs to queue (leftovers).
    /// Returns {ack, kind, …}: ack is -1 (no batch finished), 0 (another machine finished
    /// it first: its leftovers were not queued) or 1; kind is as `lease` says below, or
    /// 'none' when no lease was asked for.
    ///
    /// The lease moves expired leases back to the front of the queue first (any machine
    /// reaps). It answers {'batch', id, json}, {'wait'} (work is leased elsewhere or only
    /// own retries are left while other machines live), {'done'} (queue empty, nothing
    /// leased; marks the plan `finished`), {'stopped', reason} or {'missing', id} (a queued
    /// batch whose body is gone, evicted: marks the run lost).
    ///
    /// The plan's batches are small chunks (`QueuedBatch.chunk`). A lease merges the chunks
    /// at the head of the queue that share the first one's group into one batch of about
    /// the plan's remaining work / (live machines × shards × batches per shard), never
    /// shorter than the shortest batch unless the chunks run out: batches are cut for the
    /// fleet that is there when they are asked for, large at the start, small at the end.
    /// A shard's batch is at most twice its last (slow start): the first machine to lease
    /// sees itself alone and would otherwise take a fleet's share in one batch.
    static let step = QueueScript(keys: [.queue, .leases, .owner, .batches, .alive, .done, .since, .results, .records, .seq], inRun: true, """
        \(now)
        \(storeResult)
        local n = tonumber(ARGV[11])
        local at = 12
        for i = 1, n do
          storeResult(KEYS[8], ARGV[at], ARGV[at + 1], ARGV[at + 2])
          at = at + 3
        end
        local acked = -1
        if ARGV[at] ~= '' then
          local batch = ARGV[at]
          redis.call('RPUSH', KEYS[9], ARGV[at + 1])
          if redis.call('HGET', KEYS[3], batch) == ARGV[1] then
            redis.call('ZREM', KEYS[2], batch)
            redis.call('HDEL', KEYS[3], batch)
          end
          acked = 0
          if redis.call('SADD', KEYS[6], batch) == 1 then
            acked = 1
            redis.call('LREM', KEYS[1], 0, batch)
            for i = at + 2, #ARGV do
              local id = redis.call('INCR', KEYS[10])
              redis.call('HSET', KEYS[4], id, ARGV[i])
              redis.call('HSET', KEYS[7], id, now)
              redis.call('LPUSH', KEYS[1], id)
            end
          end
        end
        if ARGV[9] ~= '1' then return {acked, 'none'} end
        -- A machine stopped the run (--max-failures): nothing new starts anywhere.
        local stopped = redis.call('HGET', plan, 'stopped')
        if stopped then return {acked, 'stopped', stopped} end
        local lease = tonumber(ARGV[2])
        redis.call('ZADD', KEYS[5], now + lease, ARGV[1])
        for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)) do
          redis.call('ZREM', KEYS[2], id)
          redis.call('HDEL', KEYS[3], id)
          if redis.call('SISMEMBER', KEYS[6], id) == 0 then
            redis.call('LPUSH', KEYS[1], id)
          end
        end
        redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', now)
        local machines = redis.call('ZCARD', KEYS[5])
        local ids = redis.call('LRANGE', KEYS[1], 0, 199)
        local pick, pickAt, b = nil, 0, nil
        for i, id in ipairs(ids) do
          local body = redis.call('HGET', KEYS[4], id)
          if not body then
            -- Its tests can never run: the run is lost for every machine, not only this one.
            redis.call('HSET', plan, 'lost', now)
            return {acked, 'missing', id}
          end
          b = cjson.decode(body)
          local since = tonumber(redis.call('HGET', KEYS[7], id) or '0')
          if b.avoid == nil or b.avoid ~= ARGV[1] or machines <= 1 or now - since > tonumber(ARGV[3]) then
            pick, pickAt = id, i
            break
          end
        end
        if pick == nil then
          if #ids == 0 and redis.call('ZCARD', KEYS[2]) == 0 then
            -- The run is over: a later join says so instead of starting nothing silently.
            redis.call('HSETNX', plan, 'finished', now)
            return {acked, 'done'}
          end
          return {acked, 'wait'}
        end
        redis.call('LREM', KEYS[1], 1, pick)
        if b.group ~= nil then
          \(mergeChunks)
        end
        redis.call('ZADD', KEYS[2], now + lease, pick)
        redis.call('HSET', KEYS[3], pick, ARGV[1])
        return {acked, 'batch', pick, redis.call('HGET', KEYS[4], pick)}
        """)

    /// Stores one attempt that earns no retry. `field` is (nonce, test, attempt), `second`
    /// the field for a second result of the same attempt (nonce, test, attempt, machine,
    /// start): a result already stored under `field` and different is kept under `second`.
    private static let storeResult = """
        local function storeResult(results, field, entry, second)
          if redis.call('HSETNX', results, field, entry) == 0 and redis.call('HGET', results, field) ~= entry then
            redis.call('HSETNX', results, second, entry)
          end
        end
        """

    /// Inside `step`'s lease, with `pick` (its body decoded as `b`) taken off the queue at
    /// index `pickAt` of `ids`: merges the chunks after it that share its group, up to the
    /// target (see `step`), into one body under `pick`; the merged chunks leave the queue.
    private static let mergeChunks = """
        local pending = tonumber(redis.call('HGET', plan, 'pendingms') or '0')
        local shards = math.max(1, machines * tonumber(ARGV[4]))
        local target = math.max(math.min(pending / (shards * tonumber(ARGV[5])), tonumber(ARGV[10])), tonumber(ARGV[6]))
        local maxTests, maxBytes = tonumber(ARGV[7]), tonumber(ARGV[8])
        local tests, sum, bytes = b.tests, b.expected or 0, 0
        for _, t in ipairs(tests) do bytes = bytes + #t + 1 end
        local merged = {}
        for j = pickAt + 1, #ids do
          local body = redis.call('HGET', KEYS[4], ids[j])
          if not body then break end
          local c = cjson.decode(body)
          if c.group ~= b.group or c.attempt ~= 1 or c.avoid ~= nil then break end
          local cb = 0
          for _, t in ipairs(c.tests) do cb = cb + #t + 1 end
          if sum + (c.expected or 0) > target or #tests + #c.tests > maxTests or bytes + cb > maxBytes then break end
          for _, t in ipairs(c.tests) do table.insert(tests, t) end
          sum, bytes = sum + (c.expected or 0), bytes + cb
          table.insert(merged, ids[j])
        end
        redis.call('HINCRBY', plan, 'pendingms', -math.floor(sum))
        for _, id in ipairs(merged) do
          redis.call('LREM', KEYS[1], 1, id)
          redis.call('HDEL', KEYS[4], id)
          redis.call('HDEL', KEYS[7], id)
          redis.call('SADD', KEYS[6], id)
        end
        -- The merged batch is a plain batch: if its lease expires it runs again as it is.
        redis.call('HSET', KEYS[4], pick, cjson.encode({tests = tests, attempt = 1, expected = math.floor(sum)}))
        """

    /// Re-opens a finished run for its tests that did not pass (CI's "re-run failed jobs"
    /// keeps the queue name): same run, new attempts. KEYS: batches, queue, seq, since.
    /// ARGV: the `finished` mark the machine saw at join, then one batch JSON per batch.
    /// Only the first machine re-opens (the mark changes); the others just join.
    /// Returns {'reopened', batches} or {'already'}.
    static let reopen = QueueScript(keys: [.batches, .queue, .seq, .since], inRun: true, """
        \(now)
        if redis.call('HGET', plan, 'finished') ~= ARGV[1] then return {'already'} end
        redis.call('HDEL', plan, 'finished', 'stopped')
        redis.call('HINCRBY', plan, 'reruns', 1)
        \(enqueue)
        enqueue(KEYS[1], KEYS[2], KEYS[3], KEYS[4], 2)
        return {'reopened', #ARGV - 1}
        """)

    /// Stops the run for every machine (`--max-failures`). ARGV: the reason. The first
    /// reason stays; the run counts as finished, so a later join says so.
    static let stop = QueueScript(keys: [], inRun: true, """
        \(now)
        redis.call('HSETNX', plan, 'stopped', ARGV[1])
        redis.call('HSETNX', plan, 'finished', now)
        return 1
        """)

    /// Extends this machine's leases. KEYS: leases, owner, alive. ARGV: machine, lease ms, ids….
    /// Returns the ids this machine no longer holds (expired and re-leased elsewhere).
    static let heartbeat = QueueScript(keys: [.leases, .owner, .alive], inRun: true, """
        \(now)
        local lease = tonumber(ARGV[2])
        redis.call('ZADD', KEYS[3], now + lease, ARGV[1])
        local lost = {}
        for i = 3, #ARGV do
          if redis.call('HGET', KEYS[2], ARGV[i]) == ARGV[1] then
            redis.call('ZADD', KEYS[1], now + lease, ARGV[i])
          else
            table.insert(lost, ARGV[i])
          end
        end
        return lost
        """)

    /// Stores one attempt's result. KEYS: results, batches, queue, seq, since. ARGV: field
    /// (nonce, test, attempt), entry JSON, retry batch JSON or '', the field for a second
    /// result of the same attempt (nonce, test, attempt, machine, start).
    /// Every result counts: a second one (a machine whose lease ran out finished the batch
    /// late) is kept under its own field, unless it is the same entry sent again. Only the
    /// first result of an attempt pushes its retry, so a batch run twice never retries a test twice.
    /// Returns 0 (a second result), 1 (stored), 2 (stored, retry queued).
    static let record = QueueScript(keys: [.results, .batches, .queue, .seq, .since], inRun: true, """
        \(now)
        if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then
          if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then redis.call('HSETNX', KEYS[1], ARGV[4], ARGV[2]) end
          return 0
        end
        if ARGV[3] == '' then return 1 end
        local id = redis.call('INCR', KEYS[4])
        redis.call('HSET', KEYS[2], id, ARGV[3])
        redis.call('HSET', KEYS[5], id, now)
        redis.call('LPUSH', KEYS[3], id)
        return 2
        """)

    /// Puts a lost run back together from a machine's own results, so `robotci report
    /// --queue` can name what never ran. KEYS: plan, results, records, machines.
    /// ARGV: nonce, digest, test count, sorted test ids (JSON), machine field, machine
    /// metadata JSON, n, then n (result field, entry JSON) pairs, then batch record entries.
    /// Writes only when the plan vanished (restored, marked lost and finished) or is this
    /// run's and already marked lost; a live plan of this run, or another run's, is left
    /// alone. Returns {'restored'}, {'added'}, {'live'} or {'other', nonce}.
    static let salvage = QueueScript(keys: [.plan, .results, .records, .machines], inRun: false, """
        \(now)
        local state = redis.call('HMGET', KEYS[1], 'nonce', 'lost')
        local reply = 'added'
        if state[1] and state[1] ~= ARGV[1] then return {'other', state[1]} end
        if state[1] and not state[2] then return {'live'} end
        if not state[1] then
          redis.call('HSET', KEYS[1], 'nonce', ARGV[1], 'digest', ARGV[2], 'tests', ARGV[3], 'list', ARGV[4], 'batches', 0, 'planned', now, 'lost', now, 'finished', now)
          reply = 'restored'
        end
        redis.call('HSET', KEYS[4], ARGV[5], ARGV[6])
        local n = tonumber(ARGV[7])
        for i = 8, 7 + 2 * n, 2 do redis.call('HSETNX', KEYS[2], ARGV[i], ARGV[i + 1]) end
        for i = 8 + 2 * n, #ARGV do redis.call('RPUSH', KEYS[3], ARGV[i]) end
        return {reply}
        """)

    /// Sets the time to live on every key of the run. KEYS: all of them. ARGV: seconds.
    static let expire = QueueScript(keys: QueueKey.allCases, inRun: false, """
        for _, k in ipairs(KEYS) do redis.call('EXPIRE', k, tonumber(ARGV[1])) end
        return #KEYS
        """)
}
